import { Queue } from "bullmq";
import type { Clock } from "../lib/clock";
import type { JobKind } from "./job";

export interface RedisTarget {
  url: string;
  prefix: string;
}

export function redisConnection(target: RedisTarget) {
  return { url: target.url, maxRetriesPerRequest: null, enableOfflineQueue: true };
}

export function createQueues(target: RedisTarget) {
  const connection = redisConnection(target);
  const queue = (name: string) => new Queue(name, { connection, prefix: target.prefix });
  const byName = { submit: queue("submit"), sync: queue("sync"), deliver: queue("deliver") };
  return {
    ...byName,
    all: Object.values(byName),
    async close() {
      await Promise.all(Object.values(byName).map((q) => q.close()));
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
  await queues[kind.queue].add(kind.name, job.data, jobOptions(kind, clock, job.jobId, job.realDelayMs));
}

/** Queues many jobs of `kind` in one call. */
export async function addJobs<D>(
  queues: Queues,
  clock: Clock,
  kind: JobKind<D>,
  jobs: ReadonlyArray<{ jobId: string; data: D }>,
): Promise<void> {
  await queues[kind.queue].addBulk(
    jobs.map((j) => ({ name: kind.name, data: j.data, opts: jobOptions(kind, clock, j.jobId) })),
  );
}
