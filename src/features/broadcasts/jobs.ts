import { z } from "zod";
import { deliverQueue } from "../../domain/generations/deliver/deliver-step";
import type { Clock } from "../../platform/lib/clock";
import { type JobHandler, type JobKind, type JobStep, jobHandler } from "../../platform/queue/job";
import { addJob, addJobs, type Queues } from "../../platform/queue/queues";
import { copyToRecipient, type SendDeps } from "./send-step";
import { type BroadcastTickJob, type TickDeps, tickBroadcast, tickData } from "./tick-step";

const copyData = z.object({ v: z.literal(1), bid: z.uuid(), uid: z.number().int().positive() });

/**
 * Broadcast work rides in the deliver queue, under its one limiter: results carry
 * no priority and BullMQ takes those first; a broadcast's tick comes next, its
 * copies last. Job ids make a re-added copy or tick a no-op while one is still queued.
 */
export const copyJob: JobKind<z.infer<typeof copyData>> = {
  queue: deliverQueue,
  name: "broadcast-send",
  label: "broadcast",
  data: copyData,
  policy: { attempts: 5, backoffMs: 1_000, priority: 10 },
};

export const tickJob: JobKind<BroadcastTickJob> = {
  queue: deliverQueue,
  name: "broadcast-tick",
  label: "broadcast-tick",
  data: tickData,
  policy: { attempts: 20, backoffMs: 1_000, priority: 1 },
};

/**
 * Telegram's flood control: every send of every worker waits, not only this
 * one. Expected while a broadcast runs (it sends as fast as Telegram allows): said, not warned about.
 */
function floodPause(retryAfterSeconds: number, deps: Pick<SendDeps, "logger">, broadcastId: string): JobStep {
  deps.logger.info({ broadcastId, retryAfter: retryAfterSeconds }, "telegram flood control: pausing sends");
  return { kind: "pause", outcome: "flood", realMs: retryAfterSeconds * 1000 };
}

/** One recipient's copy. */
export function copyJobHandler(deps: SendDeps): JobHandler {
  return jobHandler(copyJob, async ({ bid, uid }) => {
    const outcome = await copyToRecipient(bid, uid, deps);
    if (outcome.kind === "flood") return floodPause(outcome.retryAfterSeconds, deps, bid);
    return { kind: "done", outcome: outcome.kind };
  });
}

/** One beat of a broadcast; the next one follows after its delay, with what this one saw. */
export function tickJobHandler(deps: TickDeps): JobHandler {
  return jobHandler(tickJob, async (data) => {
    const outcome = await tickBroadcast(data, deps);
    if (outcome.kind === "flood") return floodPause(outcome.retryAfterSeconds, deps, data.bid);
    if (outcome.kind === "again")
      return { kind: "later", outcome: outcome.kind, realMs: outcome.delayMs, data: outcome.data };
    return { kind: "done", outcome: outcome.kind };
  });
}

/** Queueing a broadcast's work. */
export function broadcastQueue(queues: Queues, clock: Clock) {
  const tickId = (bid: string) => `bc-tick-${bid}`;
  const copyId = (bid: string, uid: number) => `bc-${bid}-${uid}`;
  async function tick(bid: string, opts: { delayMs?: number } = {}): Promise<void> {
    await addJob(queues, clock, tickJob, {
      jobId: tickId(bid),
      data: { v: 1, bid, cursor: 0 },
      ...(opts.delayMs ? { realDelayMs: opts.delayMs } : {}),
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
          const job = await queues.of(deliverQueue.name).getJob(copyId(bid, uid));
          if (job && (await job.getState()) === "unknown") await job.remove().catch(() => undefined);
        }),
      );
      await addJobs(
        queues,
        clock,
        copyJob,
        userIds.map((uid) => ({ jobId: copyId(bid, uid), data: { v: 1, bid, uid } })),
      );
    },
    tick,
    /** the tick at once (after a cancel): a waiting one is brought forward, a missing one added */
    async tickNow(bid: string): Promise<void> {
      const job = await queues.of(deliverQueue.name).getJob(tickId(bid));
      if (!job) return tick(bid);
      if (await job.isDelayed()) await job.promote().catch(() => undefined);
    },
    /** jobs waiting behind the results: how far ahead the copies are queued */
    outstanding: () => queues.of(deliverQueue.name).getPrioritizedCount(),
  };
}
export type BroadcastQueue = ReturnType<typeof broadcastQueue>;
