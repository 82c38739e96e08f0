import { limits } from "../media/catalog";

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
export interface Silence {
  startMs: number;
  endMs: number;
}

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

/** How many parts a file of this length is dubbed in: one per started 5 minutes. */
export function dubPartCount(seconds: number): number {
  return Math.max(1, Math.ceil(Math.round(seconds * 1000) / partMaxMs));
}

/**
 * The parts' lengths (seconds) the price is quoted from before the file is cut:
 * full 5-minute parts and the rest. The cuts made later land at pauses a little
 * earlier, so the billed minutes can differ from these by a few; the charge is
 * settled to what the service measured, never above what was held.
 */
export function quotedPartSeconds(seconds: number): number[] {
  const count = dubPartCount(seconds);
  const full = limits.dubbingMaxSeconds;
  return Array.from({ length: count }, (_, i) => (i < count - 1 ? full : seconds - full * (count - 1)));
}

/**
 * Where to cut a file of `durationMs` into `dubPartCount` parts of at most 5
 * minutes: for each cut, the latest pause that overlaps the window before the
 * part's latest end (and leaves the rest short enough for the parts left), cut
 * in the pause's middle when that lies in the window; a hard cut at the latest
 * end where no pause is near. Returns the cut times in ms, ascending.
 */
export function cutPoints(
  durationMs: number,
  silences: readonly Silence[],
  windowMs = cutWindowMs,
): number[] {
  const count = dubPartCount(durationMs / 1000);
  const sorted = [...silences].sort((a, b) => a.startMs - b.startMs);
  const cuts: number[] = [];
  let previous = 0;
  for (let part = 1; part < count; part++) {
    const latest = previous + partMaxMs;
    // the rest after this cut must fit in the parts left
    const earliest = Math.max(previous + 1, durationMs - (count - part) * partMaxMs, latest - windowMs);
    let cut = latest;
    for (let i = sorted.length - 1; i >= 0; i--) {
      const s = sorted[i]!;
      if (s.startMs >= latest || s.endMs <= earliest) continue;
      const middle = (s.startMs + s.endMs) / 2;
      cut = Math.round(Math.min(latest, Math.max(earliest, middle)));
      break;
    }
    cuts.push(cut);
    previous = cut;
  }
  return cuts;
}
