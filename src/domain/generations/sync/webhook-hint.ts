import type { Logger } from "../../../platform/lib/logger";
import type { MediaClient } from "../../../platform/media-service/client";
import { MediaServiceError } from "../../../platform/media-service/errors";
import type { OrphanRecords } from "../orphans";
import type { GenerationReads } from "../reads";
import type { GenerationQueues } from "../types";

export interface WebhookHintDeps {
  generations: Pick<GenerationReads, "get" | "byTaskId"> & Pick<OrphanRecords, "recordOrphan">;
  queues: Pick<GenerationQueues, "sync">;
  /** asked whether a task a webhook names really exists and carries our gid */
  media: Pick<MediaClient, "getTask">;
  logger: Logger;
  now(): number;
  /** hints about generations older than this (clock ms) are ignored */
  maxAgeMs: number;
}

/** What a verified `task.completed` webhook named: our signed gid, the service's task id, or both. */
export interface WebhookHint {
  gid?: string | undefined;
  taskId?: string | undefined;
}

export type HintOutcome =
  | "sync-enqueued"
  | "unknown-task"
  | "too-old"
  | "known-task"
  | "orphan-recorded"
  | "orphan-not-confirmed";

/** how long the check with the service may hold the webhook's answer */
const lookupTimeoutMs = 10_000;

/**
 * The decision half of the media webhook. The webhook is only a hint: it says
 * which generation to look at now, and the sync step fetches the task from the
 * API. A task id we never stored is adopted by that step; a second task of one
 * gid costs us credits and is recorded as an orphan once the service confirms it.
 */
export async function takeWebhookHint(hint: WebhookHint, deps: WebhookHintDeps): Promise<HintOutcome> {
  const { gid, taskId } = hint;
  const byGid = gid ? await deps.generations.get(gid) : null;
  const g = byGid ?? (taskId ? await deps.generations.byTaskId(taskId) : null);
  if (!g) return "unknown-task";
  // a signature never expires: a captured body replayed long after says nothing new
  if (deps.now() - g.createdAt.getTime() > deps.maxAgeMs) return "too-old";
  if (taskId && g.taskId && g.taskId !== taskId) {
    // our gid, but not the task we hold: a duplicate the service ran anyway, or a forged id
    if (await deps.generations.byTaskId(taskId)) return "known-task";
    return confirmOrphan(taskId, g.id, deps);
  }
  const adopt = !g.taskId && taskId ? taskId : undefined;
  await deps.queues.sync(g.id, { now: true, ...(adopt ? { adopt } : {}) });
  return "sync-enqueued";
}

async function confirmOrphan(taskId: string, gid: string, deps: WebhookHintDeps): Promise<HintOutcome> {
  try {
    const task = await deps.media.getTask(taskId, { signal: AbortSignal.timeout(lookupTimeoutMs) });
    if (task.id !== taskId || task.metadata?.gid !== gid) return "orphan-not-confirmed";
    await deps.generations.recordOrphan(
      taskId,
      gid,
      task.credits_reserved ?? null,
      "webhook for a second task of one gid",
    );
    return "orphan-recorded";
  } catch (err) {
    if (!(err instanceof MediaServiceError && err.kind === "not_found"))
      deps.logger.warn({ err, taskId, generationId: gid }, "could not check a second task with the service");
    return "orphan-not-confirmed";
  }
}
