import { DelayedError, type Job, Worker } from "bullmq";
import { type CopyOutcome, copyToRecipient, type SendDeps } from "../broadcasts/send-step";
import { type TickDeps, type TickOutcome, tickBroadcast } from "../broadcasts/tick-step";
import { type DeliverDeps, deliverGeneration } from "../generations/deliver/deliver-step";
import { type SubmitDeps, submitGeneration } from "../generations/submit/submit-step";
import { type SyncDeps, syncGeneration } from "../generations/sync/sync-step";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { outageLog } from "../lib/outage-log";
import {
  broadcastSendJob,
  broadcastTickJob,
  type GenerationJob,
  generationJob,
  queueNames,
  sendJobNames,
} from "./jobs";
import { type RedisTarget, redisConnection, type SendJob } from "./queues";
import { sendLimiter } from "./send-limiter";
import type { SyncHints } from "./sync-hints";

export interface WorkerOptions {
  redis: RedisTarget;
  clock: Clock;
  logger: Logger;
  submit: SubmitDeps;
  sync: SyncDeps;
  deliver: DeliverDeps;
  /** broadcast copies and ticks, which share the deliver queue and its limiter */
  broadcasts?: { copy: SendDeps; tick: TickDeps };
  /** how long submitting pauses after the service refused our key or balance (clock ms) */
  operatorPauseMs: number;
  concurrency?: { submit?: number; sync?: number; deliver?: number };
  /** Telegram sends across all deliver workers (BullMQ's limiter lives in Redis) */
  telegramPerSecond?: number;
  onOutcome?(queue: string, gid: string, outcome: string): void;
  hints: SyncHints;
  /** real ms a job stays locked to a worker; a killed worker's jobs return after about this long */
  jobLockMs?: number;
}

/** Re-runs the job later without spending an attempt. */
async function later(
  job: Job<GenerationJob> | Job<SendJob>,
  token: string | undefined,
  realDelayMs: number,
): Promise<never> {
  await job.moveToDelayed(Date.now() + realDelayMs, token);
  throw new DelayedError();
}

function lastAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

type WorkerBase = ReturnType<typeof workerBase>;
type Report = (queue: string, gid: string, outcome: string) => void;

function workerBase(opts: WorkerOptions) {
  const lock = opts.jobLockMs ?? 30_000;
  return {
    connection: redisConnection(opts.redis),
    prefix: opts.redis.prefix,
    autorun: true,
    lockDuration: lock,
    stalledInterval: Math.max(500, Math.round(lock / 2)),
    // a job whose worker was killed is retried, not failed: every step is idempotent
    maxStalledCount: 100,
  } as const;
}

function submitWorker(opts: WorkerOptions, base: WorkerBase, report: Report): Worker<GenerationJob> {
  const worker: Worker<GenerationJob> = new Worker<GenerationJob>(
    queueNames.submit,
    async (job, token) => {
      const { gid } = generationJob.parse(job.data);
      const outcome = await submitGeneration(gid, opts.submit, opts.operatorPauseMs, {
        final: lastAttempt(job),
      });
      report("submit", gid, outcome.kind);
      switch (outcome.kind) {
        case "wait-for-adoption":
          return later(job, token, opts.clock.toReal(outcome.delayMs));
        case "pause":
          // the limiter key lives in Redis: every submit worker pauses, not only this one
          await worker.rateLimit(outcome.realMs ?? opts.clock.toReal(outcome.delayMs));
          throw Worker.RateLimitError();
        case "retry":
          throw outcome.error;
        default:
          return outcome.kind;
      }
    },
    {
      ...base,
      concurrency: opts.concurrency?.submit ?? 4,
      // BullMQ honours a rateLimit() pause across processes only when a limiter is set
      limiter: { max: 1000, duration: 1000 },
    },
  );
  return worker;
}

function syncWorker(opts: WorkerOptions, base: WorkerBase, report: Report): Worker<GenerationJob> {
  return new Worker<GenerationJob>(
    queueNames.sync,
    async (job, token) => {
      const data = generationJob.parse(job.data);
      const hinted = await opts.hints.take(data.gid);
      const outcome = await syncGeneration(data.gid, data.polls, opts.sync, data.adopt ?? hinted?.adopt);
      report("sync", data.gid, outcome.kind);
      if (outcome.kind === "poll-again") {
        // a webhook that came while we were looking: look again now instead of sleeping
        const fresh = await opts.hints.take(data.gid);
        const adopt = fresh?.adopt;
        await job.updateData({ v: 1, gid: data.gid, polls: data.polls + 1, ...(adopt ? { adopt } : {}) });
        return later(job, token, fresh ? 1 : opts.clock.toReal(outcome.delayMs));
      }
      return outcome.kind;
    },
    { ...base, concurrency: opts.concurrency?.sync ?? 8 },
  );
}

function deliverWorker(opts: WorkerOptions, base: WorkerBase, report: Report): Worker<SendJob> {
  /** Telegram's flood control: every worker of this queue waits, not only this one (the limiter lives in Redis) */
  const pause = async (retryAfterSeconds: number, about: Record<string, unknown>): Promise<never> => {
    opts.logger.warn({ ...about, retryAfter: retryAfterSeconds }, "telegram flood control: pausing sends");
    await worker.rateLimit(retryAfterSeconds * 1000);
    throw Worker.RateLimitError();
  };
  const worker: Worker<SendJob> = new Worker<SendJob>(
    queueNames.deliver,
    async (job, token) => {
      if (job.name === sendJobNames.broadcastSend) {
        const { bid, uid } = broadcastSendJob.parse(job.data);
        const outcome: CopyOutcome = await copyToRecipient(bid, uid, broadcastDeps(opts).copy);
        report("broadcast", bid, outcome.kind);
        if (outcome.kind === "flood") return pause(outcome.retryAfterSeconds, { broadcastId: bid });
        return outcome.kind;
      }
      if (job.name === sendJobNames.broadcastTick) {
        const data = broadcastTickJob.parse(job.data);
        const outcome: TickOutcome = await tickBroadcast(data, broadcastDeps(opts).tick);
        report("broadcast-tick", data.bid, outcome.kind);
        if (outcome.kind === "flood") return pause(outcome.retryAfterSeconds, { broadcastId: data.bid });
        if (outcome.kind === "again") {
          await job.updateData(outcome.data);
          return later(job, token, outcome.delayMs);
        }
        return outcome.kind;
      }
      const { gid } = generationJob.parse(job.data);
      const outcome = await deliverGeneration(gid, opts.deliver);
      report("deliver", gid, outcome.kind);
      if (outcome.kind === "flood") return pause(outcome.retryAfterSeconds, { generationId: gid });
      return outcome.kind;
    },
    {
      ...base,
      concurrency: opts.concurrency?.deliver ?? 4,
      limiter: sendLimiter(opts.telegramPerSecond ?? 25),
    },
  );
  return worker;
}

function broadcastDeps(opts: WorkerOptions): { copy: SendDeps; tick: TickDeps } {
  if (!opts.broadcasts) throw new Error("workers: a broadcast job came to a worker without broadcast deps");
  return opts.broadcasts;
}

/**
 * The BullMQ side: each processor only maps a step's outcome to a queue action
 * (done, later, retry, pause). The steps hold the logic.
 */
export function startWorkers(opts: WorkerOptions) {
  const { logger } = opts;
  const base = workerBase(opts);
  const report: Report = (queue, gid, outcome) => opts.onOutcome?.(queue, gid, outcome);
  const workers = [
    submitWorker(opts, base, report),
    syncWorker(opts, base, report),
    deliverWorker(opts, base, report),
  ];
  for (const w of workers) {
    w.on("failed", (job, err) => {
      logger.warn(
        { queue: w.name, jobId: job?.id, attempts: job?.attemptsMade, err: err.message },
        "job failed",
      );
    });
    w.on("error", outageLog(logger, `worker ${w.name}`));
  }

  return {
    workers,
    isRunning: () => workers.every((w) => w.isRunning()),
    async waitUntilReady() {
      await Promise.all(workers.map((w) => w.waitUntilReady()));
    },
    /** stop taking jobs, let running ones finish (or hand them back), close connections */
    async close(force = false) {
      await Promise.all(workers.map((w) => w.close(force)));
    },
    /** close, giving running jobs `ms` to finish; past that they are left to the stalled-job check */
    async drain(ms: number) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), ms);
      });
      const closed = await Promise.race([Promise.all(workers.map((w) => w.close())), late]);
      clearTimeout(timer);
      if (closed === "late") await Promise.all(workers.map((w) => w.close(true)));
    },
  };
}
export type WorkerSet = ReturnType<typeof startWorkers>;
