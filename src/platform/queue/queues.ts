import { Queue } from "bullmq";
import type { Clock } from "../lib/clock";
import type { JobKind, QueueSpec } from "./job";

export interface RedisTarget {
  url: string;
  prefix: string;
}

export function redisConnection(target: RedisTarget) {
  return { url: target.url, maxRetriesPerRequest: null, enableOfflineQueue: true };
}

/** The BullMQ queues of `specs`, to add jobs to and read their figures; workers are made apart. */
export function createQueues(target: RedisTarget, specs: readonly QueueSpec[]) {
  const connection = redisConnection(target);
  const byName = new Map<string, Queue>();
  for (const { name } of specs)
    if (!byName.has(name)) byName.set(name, new Queue(name, { connection, prefix: target.prefix }));
  const all = [...byName.values()];
  return {
    all,
    of(name: string): Queue {
      const queue = byName.get(name);
      if (!queue) throw new Error(`no queue ${name}: a job's queue must be one a stage declares`);
      return queue;
    },
    async close() {
      await Promise.all(all.map((q) => q.close()));
    },
  };
}
export type Queues = ReturnType<typeof createQueues>;

/**
 * Finished jobs are removed at once, so a reconciler can always queue the same
 * id again; Postgres, not Redis, remembers what happened.
 */
function jobOptions<D>(kind: JobKind<D>, clock: Clock, jobId: string, realDelayMs?: number) {
  return {
    removeOnComplete: true,
    removeOnFail: true,
    jobId,
    attempts: kind.policy.attempts,
    backoff: { type: "exponential", delay: clock.toReal(kind.policy.backoffMs) },
    ...(kind.policy.priority !== undefined ? { priority: kind.policy.priority } : {}),
    ...(realDelayMs ? { delay: realDelayMs } : {}),
  };
}

/** Queues one job of `kind` under `jobId`; while a job of that id is queued, this is a no-op. */
export async function addJob<D>(
  queues: Queues,
  clock: Clock,
  kind: JobKind<D>,
  job: { jobId: string; data: D; realDelayMs?: number },
): Promise<void> {
  await queues
    .of(kind.queue.name)
    .add(kind.name, job.data, jobOptions(kind, clock, job.jobId, job.realDelayMs));
}

/** Queues many jobs of `kind` in one call. */
export async function addJobs<D>(
  queues: Queues,
  clock: Clock,
  kind: JobKind<D>,
  jobs: ReadonlyArray<{ jobId: string; data: D }>,
): Promise<void> {
  await queues
    .of(kind.queue.name)
    .addBulk(jobs.map((j) => ({ name: kind.name, data: j.data, opts: jobOptions(kind, clock, j.jobId) })));
}
