import { DelayedError, type Job, Worker } from "bullmq";
import { GrammyError } from "grammy";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { type GenerationJob, generationJob, queueNames } from "./jobs";
import { type RedisTarget, redisConnection } from "./queues";
import { type DeliverDeps, deliverGeneration } from "./steps/deliver";
import { giveUpSubmit, type SubmitDeps, submitGeneration } from "./steps/submit";
import { type SyncDeps, syncGeneration } from "./steps/sync";
import type { SyncHints } from "./sync-hints";

export interface WorkerOptions {
  redis: RedisTarget;
  clock: Clock;
  logger: Logger;
  submit: SubmitDeps;
  sync: SyncDeps;
  deliver: DeliverDeps;
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
  job: Job<GenerationJob>,
  token: string | undefined,
  realDelayMs: number,
): Promise<never> {
  await job.moveToDelayed(Date.now() + realDelayMs, token);
  throw new DelayedError();
}

function lastAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/**
 * The BullMQ side: each processor only maps a step's outcome to a queue action
 * (done, later, retry, pause). The steps hold the logic.
 */
export function startWorkers(opts: WorkerOptions) {
  const { clock, logger } = opts;
  const connection = redisConnection(opts.redis);
  const lock = opts.jobLockMs ?? 30_000;
  const base = {
    connection,
    prefix: opts.redis.prefix,
    autorun: true,
    lockDuration: lock,
    stalledInterval: Math.max(500, Math.round(lock / 2)),
    // a job whose worker was killed is retried, not failed: every step is idempotent
    maxStalledCount: 100,
  } as const;
  const report = (queue: string, gid: string, outcome: string) => opts.onOutcome?.(queue, gid, outcome);

  const submitWorker: Worker<GenerationJob> = new Worker<GenerationJob>(
    queueNames.submit,
    async (job, token) => {
      const { gid } = generationJob.parse(job.data);
      const outcome = await submitGeneration(gid, opts.submit, opts.operatorPauseMs);
      report("submit", gid, outcome.kind);
      switch (outcome.kind) {
        case "wait-for-adoption":
          return later(job, token, clock.toReal(outcome.delayMs));
        case "pause":
          // the limiter key lives in Redis: every submit worker pauses, not only this one
          await submitWorker.rateLimit(outcome.realMs ?? clock.toReal(outcome.delayMs));
          throw Worker.RateLimitError();
        case "retry":
          if (lastAttempt(job)) {
            await giveUpSubmit(gid, opts.submit, outcome.error);
            return "gave-up";
          }
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

  const syncWorker = new Worker<GenerationJob>(
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
        return later(job, token, fresh ? 1 : clock.toReal(outcome.delayMs));
      }
      return outcome.kind;
    },
    { ...base, concurrency: opts.concurrency?.sync ?? 8 },
  );

  const deliverWorker: Worker<GenerationJob> = new Worker<GenerationJob>(
    queueNames.deliver,
    async (job) => {
      const { gid } = generationJob.parse(job.data);
      try {
        const outcome = await deliverGeneration(gid, opts.deliver);
        report("deliver", gid, outcome.kind);
        return outcome.kind;
      } catch (err) {
        if (err instanceof GrammyError && err.error_code === 429) {
          const seconds = err.parameters.retry_after ?? 1;
          logger.warn(
            { generationId: gid, retryAfter: seconds },
            "telegram flood control: pausing deliveries",
          );
          report("deliver", gid, "flood");
          await deliverWorker.rateLimit(seconds * 1000);
          throw Worker.RateLimitError();
        }
        throw err;
      }
    },
    {
      ...base,
      concurrency: opts.concurrency?.deliver ?? 4,
      limiter: { max: opts.telegramPerSecond ?? 25, duration: 1000 },
    },
  );

  const workers = [submitWorker, syncWorker, deliverWorker];
  for (const w of workers) {
    w.on("failed", (job, err) => {
      logger.warn(
        { queue: w.name, jobId: job?.id, attempts: job?.attemptsMade, err: err.message },
        "job failed",
      );
    });
    w.on("error", (err) => logger.error({ queue: w.name, err: err.message }, "worker error"));
  }

  return {
    workers,
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
