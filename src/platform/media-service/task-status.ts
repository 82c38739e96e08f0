import type { Task } from "./schemas";

/**
 * What a task means for the bot. The document shows only `pending` and
 * `completed`; the failure status is not shown, so failure is a non-null
 * `error` or a status containing a failure word, and every other status is
 * still running (see ASSUMPTIONS.md).
 */
export type TaskOutcome =
  | { outcome: "succeeded"; images: string[]; videos: string[]; audios: string[] }
  | { outcome: "failed"; reason: string; error: unknown }
  | { outcome: "running"; status: string };

const successStatuses = new Set([
  "completed",
  "complete",
  "succeeded",
  "success",
  "successful",
  "done",
  "finished",
]);
const failureWord = /fail|error|cancel|expire|timed?[\s_-]?out|reject|abort|refused|invalid/i;

type ClassifiableTask = Pick<Task, "status" | "images" | "videos" | "audios"> & { error?: unknown };

function hasError(error: unknown): boolean {
  return error !== undefined && error !== null && error !== false && error !== "";
}

/** A short, log- and user-safe description of the service's error value. */
function describeTaskError(error: unknown): string {
  if (typeof error === "string") return error;
  if (error && typeof error === "object") {
    const e = error as Record<string, unknown>;
    const message = typeof e.message === "string" ? e.message : undefined;
    const code = typeof e.code === "string" ? e.code : typeof e.type === "string" ? e.type : undefined;
    if (code && message) return `${code}: ${message}`;
    if (message ?? code) return (message ?? code)!;
  }
  return JSON.stringify(error) ?? "unknown error";
}

export function classifyTask(task: ClassifiableTask): TaskOutcome {
  const status = (task.status ?? "").trim().toLowerCase();
  if (hasError(task.error)) {
    return { outcome: "failed", reason: describeTaskError(task.error), error: task.error };
  }
  if (failureWord.test(status)) {
    return { outcome: "failed", reason: `task ${task.status}`, error: task.error ?? null };
  }
  if (successStatuses.has(status)) {
    const images = task.images ?? [];
    const videos = task.videos ?? [];
    const audios = task.audios ?? [];
    if (images.length + videos.length + audios.length === 0) {
      return { outcome: "failed", reason: "completed without any output", error: task.error ?? null };
    }
    return { outcome: "succeeded", images, videos, audios };
  }
  return { outcome: "running", status: task.status || "unknown" };
}
