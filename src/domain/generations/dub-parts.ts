import type { Silence } from "../../platform/ffmpeg/silences";
import { limits } from "../../platform/media-service/catalog";

/*
 * The service dubs at most 5 minutes per task (section 4.1: "files longer than
 * 5 minutes must be split by the client"). A longer file is dubbed in parts of
 * at most that length, as few as its length allows, each cut at a pause in the
 * speech near where the part would have to end.
 */

const partMaxMs = limits.dubbingMaxSeconds * 1000;

/** How far before a part's latest possible end a pause is looked for. */
export const cutWindowMs = 30_000;

/** A stretch of the input without speech (ffmpeg's silencedetect), in ms from the start. */
/** Where a part lies in the input, in ms. */
export interface PartPlanned {
  index: number;
  startMs: number;
  endMs: number;
}

/** The parts between the cuts. */
export function planParts(durationMs: number, cutsMs: readonly number[]): PartPlanned[] {
  const bounds = [0, ...cutsMs, durationMs];
  return cutsMs.concat(durationMs).map((endMs, index) => ({ index, startMs: bounds[index]!, endMs }));
}

/**
 * What a cut and its MP3 encoding may add to a part (a frame, the encoder's
 * padding): each part is planned this much short of its last billed minute,
 * so that the service, measuring it, cannot find a minute more.
 */
export const partGuardMs = 500;

/**
 * The part budgets of a file of this length: whole started minutes, each at
 * most the service's 5 minutes, as few as hold it (each less `partGuardMs` when
 * it is cut), spread evenly. The one source of both the cuts (each part within
 * its budget) and the price (the budgets' sum): the service cannot bill more
 * minutes for the parts than the budgets hold. A file within 5 minutes is one
 * part, sent whole and uncut.
 */
export function dubBudgets(seconds: number): number[] {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const minuteMs = limits.dubbingBillingUnitSeconds * 1000;
  if (ms <= partMaxMs) return [Math.max(limits.dubbingMinBilledUnits, Math.ceil(ms / minuteMs))];
  const count = Math.ceil(ms / (partMaxMs - partGuardMs));
  const minutes = Math.ceil((ms + count * partGuardMs) / minuteMs);
  const base = Math.floor(minutes / count);
  return Array.from({ length: count }, (_, i) => base + (i < minutes % count ? 1 : 0));
}

/** The longest a part with this budget is planned: its minutes less the guard. */
function usableMs(budgetMinutes: number): number {
  return budgetMinutes * limits.dubbingBillingUnitSeconds * 1000 - partGuardMs;
}

/**
 * Where the cut ending part `part` (1-based) may fall, after the cut at
 * `previous`: no later than its budget allows (`latest`), and late enough for
 * the parts left to hold the rest within theirs (`earliest`). A pause is
 * looked for in the last `windowMs` before `latest`.
 */
export function cutWindow(
  durationMs: number,
  budgets: readonly number[],
  part: number,
  previous: number,
  windowMs = cutWindowMs,
) {
  const left = budgets.slice(part).reduce((sum, b) => sum + usableMs(b), 0);
  const latest = Math.min(previous + usableMs(budgets[part - 1]!), durationMs - 1);
  const earliest = Math.max(previous + 1, durationMs - left, latest - windowMs);
  return { earliest, latest };
}

/**
 * Where to cut a file of `durationMs` into the parts of its budgets
 * (`dubBudgets`): each cut in the pause that lets its part run closest to its
 * budget, among those overlapping its window (`cutWindow`), in the pause's
 * middle when that lies in the window; where no pause is near, a hard cut at
 * the budget's end exactly (never past it). Returns the cut times in ms,
 * ascending.
 */
export function cutPoints(
  durationMs: number,
  silences: readonly Silence[],
  windowMs = cutWindowMs,
): number[] {
  const budgets = dubBudgets(durationMs / 1000);
  const cuts: number[] = [];
  let previous = 0;
  for (let part = 1; part < budgets.length; part++) {
    const { earliest, latest } = cutWindow(durationMs, budgets, part, previous, windowMs);
    let cut = latest;
    let best = Number.NEGATIVE_INFINITY;
    for (const s of silences) {
      if (s.startMs > latest || s.endMs < earliest) continue;
      const at = Math.floor(Math.min(latest, Math.max(earliest, (s.startMs + s.endMs) / 2)));
      if (at > best) best = at;
    }
    if (best >= earliest) cut = best;
    cuts.push(cut);
    previous = cut;
  }
  return cuts;
}
