import type { Job, Queue } from "bullmq";

/** Jobs per queue and state (prioritized: jobs with a priority, such as broadcast copies behind the results). */
export async function queueDepths(queues: readonly Queue[]): Promise<Record<string, Record<string, number>>> {
  const out: Record<string, Record<string, number>> = {};
  for (const q of queues)
    out[q.name] = await q.getJobCounts("wait", "prioritized", "active", "delayed", "failed");
  return out;
}

/** Seconds the oldest job waiting in each queue has been due (0 when none waits). */
export async function queueLags(queues: readonly Queue[], now = Date.now()): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  // a list's oldest job, first in BullMQ's ascending order
  for (const q of queues) out[q.name] = waitedSeconds((await q.getWaiting(0, 0))[0], now);
  return out;
}

/**
 * How long a waiting job has been due: since it was queued (and its delay passed), or
 * since it last ran. BullMQ forgets the delay of a job run again later (a poll), so
 * that one counts up to its last delay more.
 */
function waitedSeconds(job: Job | undefined, now: number): number {
  if (!job) return 0;
  const due = Math.max(job.timestamp + (job.opts.delay ?? 0), job.processedOn ?? 0);
  return Math.max(0, now - due) / 1000;
}
