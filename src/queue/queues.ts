import { Queue } from "bullmq";
import type { GenerationQueues } from "../generations/service";
import type { Clock } from "../lib/clock";
import { type GenerationJob, queueNames } from "./jobs";
import type { SyncHints } from "./sync-hints";

export interface RedisTarget {
  url: string;
  prefix: string;
}

export function redisConnection(target: RedisTarget) {
  return { url: target.url, maxRetriesPerRequest: null, enableOfflineQueue: true };
}

/**
 * Finished jobs are removed at once, so a reconciler can always re-enqueue the
 * same generation id; Postgres, not Redis, remembers what happened.
 */
const common = { removeOnComplete: true, removeOnFail: true } as const;

const submitAttempts = 8;

export function createQueues(target: RedisTarget) {
  const connection = redisConnection(target);
  const submit = new Queue<GenerationJob>(queueNames.submit, { connection, prefix: target.prefix });
  const sync = new Queue<GenerationJob>(queueNames.sync, { connection, prefix: target.prefix });
  const deliver = new Queue<GenerationJob>(queueNames.deliver, { connection, prefix: target.prefix });
  return {
    submit,
    sync,
    deliver,
    all: [submit, sync, deliver],
    async close() {
      await Promise.all([submit.close(), sync.close(), deliver.close()]);
    },
  };
}
export type Queues = ReturnType<typeof createQueues>;

/** The generations service's view of the queues: jobId is always the generation id. */
export function generationQueues(queues: Queues, clock: Clock, hints: SyncHints): GenerationQueues {
  const data = (gid: string): GenerationJob => ({ v: 1, gid, polls: 0 });
  return {
    async submit(id, opts) {
      await queues.submit.add("submit", data(id), {
        ...common,
        jobId: id,
        attempts: submitAttempts,
        backoff: { type: "exponential", delay: clock.toReal(2_000) },
        delay: opts?.delayMs ? clock.toReal(opts.delayMs) : undefined,
      });
    },
    async sync(id, opts) {
      if (opts?.now) {
        const existing = await queues.sync.getJob(id);
        if (existing) {
          // a delayed poll is brought forward; a running one finds the hint before it sleeps
          await hints.leave(id, opts.adopt);
          if (await existing.isDelayed()) await existing.promote().catch(() => undefined);
          return;
        }
      }
      await queues.sync.add(
        "sync",
        { ...data(id), ...(opts?.adopt ? { adopt: opts.adopt } : {}) },
        {
          ...common,
          jobId: id,
          attempts: 5,
          backoff: { type: "exponential", delay: clock.toReal(3_000) },
          delay: opts?.delayMs ? clock.toReal(opts.delayMs) : undefined,
        },
      );
    },
    async deliver(id) {
      await queues.deliver.add("deliver", data(id), {
        ...common,
        jobId: id,
        attempts: 10,
        backoff: { type: "exponential", delay: clock.toReal(2_000) },
      });
    },
  };
}
