import { z } from "zod";
import type { Clock } from "../../../platform/lib/clock";
import type { Logger } from "../../../platform/lib/logger";
import { isDubbingLanguage, pollIntervalMs } from "../../../platform/media-service/catalog";
import type { MediaClient } from "../../../platform/media-service/client";
import { MediaServiceError } from "../../../platform/media-service/errors";
import { classifyTask } from "../../../platform/media-service/task-status";
import { type JobHandler, type JobKind, jobHandler, type QueueSpec } from "../../../platform/queue/job";
import type { OrphanRecords } from "../orphans";
import type { GenerationReads } from "../reads";
import { mayStillComplete } from "../states";
import type { GenerationTransitions } from "../transitions";
import { type GenerationQueues, generationJobData } from "../types";
import type { SyncOutcome } from "./outcome";
import type { SyncHints } from "./sync-hints";
import { type PartsSyncDeps, syncParts } from "./sync-parts";

export interface SyncDeps {
  generations: Pick<GenerationReads, "get"> &
    Pick<GenerationTransitions, "adopt" | "complete" | "fail" | "expire"> &
    Pick<OrphanRecords, "recordOrphan">;
  media: MediaClient;
  clock: Clock;
  logger: Logger;
  queues: Pick<GenerationQueues, "deliver">;
  /** longest wait between polls (clock ms) */
  maxPollIntervalMs: number;
  /** seconds from the service's completed_at to our seeing it */
  observeCompletionLag?(seconds: number): void;
  /** a dub in parts is followed part by part (sync-parts.ts) */
  parts?: PartsSyncDeps;
}

/** Polling starts at the document's interval and backs off by half each time. */
function pollDelay(operation: Parameters<typeof pollIntervalMs>[0], polls: number, maxMs: number): number {
  return Math.min(maxMs, Math.round(pollIntervalMs(operation) * 1.5 ** Math.min(polls, 20)));
}

/** The service is the truth: fetch the task and move the generation accordingly. */
export async function syncGeneration(
  id: string,
  polls: number,
  deps: SyncDeps,
  adoptTaskId?: string,
): Promise<SyncOutcome> {
  const { generations, clock } = deps;
  let g = await generations.get(id);
  if (g?.partsTotal)
    return deps.parts ? syncParts(g, polls, deps.parts, adoptTaskId) : { kind: "nothing-to-do" };
  if (g && !g.taskId && adoptTaskId) g = await adoptTask(g.id, adoptTaskId, deps);
  if (!g?.taskId) return { kind: "nothing-to-do" };
  const waiting = g.state === "pending";
  // a result may still come for a generation we gave up on: delivered free
  const lateCandidate = mayStillComplete(g);
  if (!waiting && !lateCandidate) return { kind: "nothing-to-do" };

  const again = (): SyncOutcome => ({
    kind: "poll-again",
    delayMs: pollDelay(g.operation, polls, deps.maxPollIntervalMs),
  });
  const pastDeadline = () => g.deadlineAt !== null && clock.now() > g.deadlineAt.getTime();

  let task: Awaited<ReturnType<MediaClient["getTask"]>>;
  try {
    task = await deps.media.getTask(g.taskId);
  } catch (err) {
    if (!waiting) return { kind: "nothing-to-do" };
    deps.logger.warn({ err, generationId: id }, "task lookup failed");
    if (pastDeadline()) return expire();
    if (err instanceof MediaServiceError || err instanceof Error) return again();
    throw err;
  }

  const outcome = classifyTask(task);
  switch (outcome.outcome) {
    case "succeeded": {
      const detected = g.operation === "dub" ? detectedLanguage(task) : undefined;
      const done = await generations.complete(
        id,
        { images: outcome.images, videos: outcome.videos, audios: outcome.audios },
        {
          serviceCredits: task.credits_reserved ?? null,
          ...(detected ? { detectedLanguage: detected } : {}),
        },
      );
      if (!done) return { kind: "nothing-to-do" };
      const completedAt = task.completed_at ? Date.parse(task.completed_at) : Number.NaN;
      if (Number.isFinite(completedAt))
        deps.observeCompletionLag?.(Math.max(0, (clock.now() - completedAt) / 1000));
      await deps.queues.deliver(id);
      return { kind: "completed", late: done.late };
    }
    case "failed": {
      if (!waiting) return { kind: "nothing-to-do" };
      const failed = await generations.fail(id, { reason: "task_failed", message: outcome.reason });
      if (failed) await deps.queues.deliver(id);
      return { kind: "failed" };
    }
    case "running":
      if (!waiting) return { kind: "nothing-to-do" };
      return pastDeadline() ? expire() : again();
  }

  async function expire(): Promise<SyncOutcome> {
    const expired = await generations.expire(id);
    if (expired) await deps.queues.deliver(id);
    return { kind: "expired" };
  }
}

/**
 * The language a dub's service task says it heard: its `source_language` when
 * that names one of the dubbing languages (the document shows only the echo of
 * the request, `auto`, so usually there is none).
 */
function detectedLanguage(task: Awaited<ReturnType<MediaClient["getTask"]>>): string | undefined {
  const said = (task as Record<string, unknown>).source_language;
  return typeof said === "string" && isDubbingLanguage(said) ? said : undefined;
}

/** Adopts a task a webhook named for this gid, after checking with the service that it carries our gid. */
async function adoptTask(id: string, taskId: string, deps: SyncDeps) {
  const task = await deps.media.getTask(taskId);
  if (task.metadata?.gid !== id) {
    deps.logger.warn({ generationId: id, taskId }, "webhook named a task that does not carry this gid");
    return deps.generations.get(id);
  }
  const measured = typeof task.duration_seconds === "number" ? task.duration_seconds : null;
  const adopted = await deps.generations.adopt(id, {
    taskId,
    serviceCredits: task.credits_reserved ?? null,
    measuredSeconds: measured,
  });
  if (adopted) {
    deps.logger.info({ generationId: id, taskId }, "adopted a task created before a crash");
    return adopted;
  }
  const current = await deps.generations.get(id);
  if (current && current.taskId !== taskId) {
    // a task of ours the generation cannot take (cancelled, rejected, already has another): its cost is ours
    await deps.generations.recordOrphan(
      taskId,
      id,
      task.credits_reserved ?? null,
      `task for a generation ${current.state}`,
    );
  }
  return current;
}

const syncData = generationJobData.extend({
  /** how many polls so far, for backoff */
  polls: z.number().int().nonnegative().default(0),
  /** a task id a webhook named for this gid, to adopt after a crash in submit */
  adopt: z.string().min(1).optional(),
});
export type SyncJobData = z.infer<typeof syncData>;

export const syncQueue: QueueSpec = { name: "sync", concurrency: 8 };

/** The sync job: one per generation at a time (its id is the job id), polling the service until the task ends. */
export const syncJob: JobKind<SyncJobData> = {
  queue: syncQueue,
  name: "sync",
  label: "sync",
  data: syncData,
  policy: { attempts: 5, backoffMs: 3_000 },
};

export interface SyncJobDeps extends SyncDeps {
  hints: SyncHints;
  /**
   * After each poll that found it still running: the status shown again, so its
   * wait line (how long it usually takes, how long it has been) stays current.
   * It changes at most about once a minute; an unchanged text is not edited.
   */
  onWaiting?(generationId: string): Promise<void>;
}

/** Runs `syncGeneration`; a poll again waits, unless a webhook left a hint meanwhile. */
export function syncJobHandler(deps: SyncJobDeps): JobHandler {
  return jobHandler(syncJob, async (data) => {
    const hinted = await deps.hints.take(data.gid);
    const outcome = await syncGeneration(data.gid, data.polls, deps, data.adopt ?? hinted?.adopt);
    if (outcome.kind !== "poll-again") return { kind: "done", outcome: outcome.kind };
    await deps.onWaiting?.(data.gid).catch((err: unknown) => {
      deps.logger.info(
        { err: err instanceof Error ? err.message : String(err), generationId: data.gid },
        "waiting status not shown",
      );
    });
    // a webhook that came while we were looking: look again now instead of sleeping
    const fresh = await deps.hints.take(data.gid);
    const next: SyncJobData = {
      v: 1,
      gid: data.gid,
      polls: data.polls + 1,
      ...(fresh?.adopt ? { adopt: fresh.adopt } : {}),
    };
    return {
      kind: "later",
      outcome: outcome.kind,
      realMs: fresh ? 1 : deps.clock.toReal(outcome.delayMs),
      data: next,
    };
  });
}
