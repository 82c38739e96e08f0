import { DelayedError, type Job, Worker } from "bullmq";
import type { Logger } from "../lib/logger";
import { outageLog } from "../lib/outage-log";
import type { JobHandler, QueueSpec } from "./job";
import { type RedisTarget, redisConnection } from "./queues";
import { sendLimiter } from "./send-limiter";

export interface WorkerOptions {
  redis: RedisTarget;
  logger: Logger;
  /** jobs at once per queue, by name, where settings differ from the queue's own */
  concurrency?: Partial<Record<string, number>>;
  /** Telegram sends per second across all deliver workers (BullMQ's limiter lives in Redis) */
  telegramPerSecond?: number;
  onOutcome?(label: string, outcome: string): void;
  /** real ms a job stays locked to a worker; a killed worker's jobs return after about this long */
  jobLockMs?: number;
}

/** What each queue's workers share besides their jobs (BullMQ's limiter lives in Redis). */
function limiterOf(queue: QueueSpec, opts: WorkerOptions) {
  if (queue.limiter === "telegram-sends") return sendLimiter(opts.telegramPerSecond ?? 25);
  if (queue.limiter === "pausable") return { max: 1000, duration: 1000 };
  return undefined;
}

/**
 * The BullMQ side: one worker per queue the given jobs use, each run handed to
 * its job's handler by name, and the step it returns carried out (done, later,
 * a pause of the queue, or a retry when it throws). The stages hold the logic.
 */
export function startWorkers(jobs: readonly JobHandler[], opts: WorkerOptions) {
  const { logger } = opts;
  const lock = opts.jobLockMs ?? 30_000;
  const queues = new Map(jobs.map((j) => [j.queue.name, j.queue]));
  const workers = [...queues.values()].map((spec) => {
    const queue = spec.name;
    const handlers = new Map(jobs.filter((j) => j.queue.name === queue).map((j) => [j.name, j]));
    const limiter = limiterOf(spec, opts);
    const worker: Worker = new Worker(
      queue,
      async (job: Job, token) => {
        const handler = handlers.get(job.name);
        if (!handler) throw new Error(`no handler for job ${job.name} of queue ${queue}`);
        const step = await handler.handle(job.data, {
          final: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
        });
        opts.onOutcome?.(handler.label, step.outcome);
        if (step.kind === "done") return step.outcome;
        if (step.kind === "pause") {
          // the limiter key lives in Redis: every worker of this queue pauses, not only this one
          await worker.rateLimit(step.realMs);
          throw Worker.RateLimitError();
        }
        // again later, without spending an attempt
        if (step.data !== undefined) await job.updateData(step.data);
        await job.moveToDelayed(Date.now() + step.realMs, token);
        throw new DelayedError();
      },
      {
        connection: redisConnection(opts.redis),
        prefix: opts.redis.prefix,
        autorun: true,
        lockDuration: lock,
        stalledInterval: Math.max(500, Math.round(lock / 2)),
        // a job whose worker was killed is retried, not failed: every step is idempotent
        maxStalledCount: 100,
        concurrency: opts.concurrency?.[queue] ?? spec.concurrency,
        ...(limiter ? { limiter } : {}),
      },
    );
    worker.on("failed", (job, err) => {
      logger.warn({ queue, jobId: job?.id, attempts: job?.attemptsMade, err: err.message }, "job failed");
      // BullMQ sets finishedOn only when no retry follows: the job's last attempt failed
      const label = (job && handlers.get(job.name)?.label) ?? queue;
      opts.onOutcome?.(label, typeof job?.finishedOn === "number" ? "gave-up" : "error");
    });
    worker.on("error", outageLog(logger, `worker ${queue}`));
    return worker;
  });

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
