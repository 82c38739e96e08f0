import type { z } from "zod";

/**
 * A queue, declared by the stage whose jobs it holds: its name, how many of its jobs one
 * worker process runs at once, and what its workers share. A `pause` step holds every
 * worker of a queue only when it has a limiter: "pausable" is one that never binds,
 * "telegram-sends" Telegram's global send rate.
 */
export interface QueueSpec {
  name: string;
  concurrency: number;
  limiter?: "pausable" | "telegram-sends";
}

/** How a job is queued: attempts before it fails, the first backoff (doubling), and its priority. */
export interface JobPolicy {
  attempts: number;
  /** clock ms before the first retry; each next one waits twice as long */
  backoffMs: number;
  /** lower runs first; a job without one runs before any prioritized job (BullMQ's rule) */
  priority?: number;
}

/**
 * A kind of job, defined by the stage that runs it, beside its step: where it is
 * queued, under which name, its data (versioned: jobs already in Redis still parse
 * after a deploy) and its policy.
 */
export interface JobKind<D> {
  queue: QueueSpec;
  name: string;
  /** how its outcomes are counted (msb_job_outcomes_total's `queue`) */
  label: string;
  data: z.ZodType<D>;
  policy: JobPolicy;
}

/** What became of one run of a job, for the queue to carry out. A thrown error is retried. */
export type JobStep =
  | { kind: "done"; outcome: string }
  /** run it again after `realMs`, with `data` when given, without spending an attempt */
  | { kind: "later"; outcome: string; realMs: number; data?: unknown }
  /** no job of its queue may run for `realMs`, in any process; this one runs again after that */
  | { kind: "pause"; outcome: string; realMs: number };

/** A kind of job with what one run does: what the worker role hands `queue/`, which knows no stage. */
export interface JobHandler {
  queue: QueueSpec;
  name: string;
  label: string;
  /** one run: the data as it came from Redis, checked here; `final` on its last attempt */
  handle(data: unknown, attempt: { final: boolean }): Promise<JobStep>;
}

/** The handler of `kind`: its data parsed with the kind's schema, then `run`. */
export function jobHandler<D>(
  kind: JobKind<D>,
  run: (data: D, attempt: { final: boolean }) => Promise<JobStep>,
): JobHandler {
  return {
    queue: kind.queue,
    name: kind.name,
    label: kind.label,
    handle: async (data, attempt) => run(kind.data.parse(data), attempt),
  };
}
