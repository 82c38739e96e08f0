import type { GenerationState } from "../../platform/db/schema";
import type { Operation } from "./params";
import type { Generation } from "./types";

/** Not yet sent to the service or not yet answered by it. */
export const stillRunning: GenerationState[] = ["queued", "submitting", "pending"];
/** A result is in: it is (being) sent to the chat. */
export const toDeliver: GenerationState[] = ["completed", "delivering"];
/** Ended without a result; the user is told once (`notifiedAt`). */
export const endedBadly: GenerationState[] = ["failed", "rejected", "expired"];
/** States the reconciler always looks at (plus `endedBadly` ones whose user was not told yet). */
export const notAtRest: GenerationState[] = [...stillRunning, ...toDeliver];

const minute = 60_000;
/** How long after submission a task may run before we expire it, by operation (clock ms). */
export const defaultDeadlines: Record<Operation, number> = {
  image: 10 * minute,
  edit: 10 * minute,
  // the service gives up on video after about 15 minutes; we add grace
  video: 20 * minute,
  dub: 30 * minute,
};

/**
 * Only a generation we gave up on ourselves can still get a (late, free) result;
 * one the service itself failed cannot complete later.
 */
export function mayStillComplete(g: Generation): boolean {
  if (g.late) return false;
  return g.state === "expired" || (g.state === "failed" && g.error?.reason === "service_unavailable");
}
