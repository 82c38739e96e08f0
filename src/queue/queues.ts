import { Queue } from "bullmq";
import type { GenerationQueues } from "../generations/service";
import type { Clock } from "../lib/clock";
import {
  type BroadcastSendJob,
  type BroadcastTickJob,
  type GenerationJob,
  queueNames,
  sendJobNames,
} from "./jobs";
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

/** Everything the deliver queue carries: results, and broadcasts behind them. */
export type SendJob = GenerationJob | BroadcastSendJob | BroadcastTickJob;

export function createQueues(target: RedisTarget) {
  const connection = redisConnection(target);
  const submit = new Queue<GenerationJob>(queueNames.submit, { connection, prefix: target.prefix });
  const sync = new Queue<GenerationJob>(queueNames.sync, { connection, prefix: target.prefix });
  const deliver = new Queue<SendJob>(queueNames.deliver, { connection, prefix: target.prefix });
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
          // no isDelayed() first: promoting a job that is not delayed changes nothing
          await existing.promote().catch(() => undefined);
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

/**
 * Broadcast work rides in the deliver queue, under its one limiter: results
 * carry no priority and BullMQ takes those first; a broadcast's tick comes
 * next, its copies last. Job ids make a re-added copy or tick a no-op while
 * one is still queued.
 */
const tickPriority = 1;
const copyPriority = 10;

export function broadcastQueue(queues: Queues) {
  const deliver = queues.deliver;
  const tickId = (bid: string) => `bc-tick-${bid}`;
  const copyId = (bid: string, uid: number) => `bc-${bid}-${uid}`;
  async function tick(bid: string, opts: { delayMs?: number } = {}): Promise<void> {
    const data: BroadcastTickJob = { v: 1, bid, cursor: 0 };
    await deliver.add(sendJobNames.broadcastTick, data, {
      ...common,
      jobId: tickId(bid),
      priority: tickPriority,
      attempts: 20,
      backoff: { type: "exponential", delay: 1_000 },
      ...(opts.delayMs ? { delay: opts.delayMs } : {}),
    });
  }
  return {
    /**
     * Queues one copy per user id; each job id is the broadcast's and the user's, so a copy
     * still queued is not queued twice. A job left in no list (a partial flush of Redis:
     * its hash kept, its place in the queue gone) would swallow every re-add of its id and
     * leave that recipient pending for good: it is removed first.
     */
    async copies(bid: string, userIds: readonly number[]): Promise<void> {
      await Promise.all(
        userIds.map(async (uid) => {
          const job = await deliver.getJob(copyId(bid, uid));
          if (job && (await job.getState()) === "unknown") await job.remove().catch(() => undefined);
        }),
      );
      await deliver.addBulk(
        userIds.map((uid) => ({
          name: sendJobNames.broadcastSend,
          data: { v: 1, bid, uid } satisfies BroadcastSendJob,
          opts: {
            ...common,
            jobId: copyId(bid, uid),
            priority: copyPriority,
            attempts: 5,
            backoff: { type: "exponential", delay: 1_000 },
          },
        })),
      );
    },
    tick,
    /** the tick at once (after a cancel): a waiting one is brought forward, a missing one added */
    async tickNow(bid: string): Promise<void> {
      const job = await deliver.getJob(tickId(bid));
      if (!job) return tick(bid);
      if (await job.isDelayed()) await job.promote().catch(() => undefined);
    },
    /** jobs waiting behind the results: how far ahead the copies are queued */
    outstanding: () => deliver.getPrioritizedCount(),
  };
}
export type BroadcastQueue = ReturnType<typeof broadcastQueue>;
