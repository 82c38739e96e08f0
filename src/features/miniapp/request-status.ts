import { statusView } from "../../domain/generations/status";
import type { Generation } from "../../domain/generations/types";
import type { GenerationState } from "../../platform/db/schema";
import type { TranslateFor } from "../../platform/i18n/i18n";
import type { RequestStatusResponse } from "./contract";

const phaseOf: Record<GenerationState, RequestStatusResponse["phase"]> = {
  queued: "queued",
  submitting: "queued",
  pending: "generating",
  completed: "generating",
  delivering: "generating",
  delivered: "done",
  failed: "ended",
  rejected: "ended",
  expired: "ended",
  cancelled: "ended",
};

/** A request as the composer shows it once confirmed: its phase and the chat's status words for it (status.ts' one table). */
export function requestStatus(g: Generation, t: TranslateFor): Omit<RequestStatusResponse, "balance"> {
  const phase = phaseOf[g.state];
  return {
    id: g.id,
    phase,
    text: statusView(g, t).text,
    resultId: phase === "done" && (g.fileIds?.length ?? 0) > 0 ? g.id : null,
  };
}
