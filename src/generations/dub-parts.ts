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

/** Room each cut keeps to move back to a pause: without it a length just under n × 5 minutes would cut mid-word. */
const roomPerCutMs = cutWindowMs / 2;

/**
 * How many parts a file of this length is dubbed in: the fewest of at most 5
 * minutes that leave every cut some room to land in a pause (one more than
 * the bare minimum for a length just under a multiple of 5 minutes).
 */
export function dubPartCount(seconds: number): number {
  const ms = Math.round(seconds * 1000);
  if (ms <= partMaxMs) return 1;
  return Math.max(Math.ceil(ms / partMaxMs), Math.ceil((ms - roomPerCutMs) / (partMaxMs - roomPerCutMs)));
}

/**
 * The parts' lengths (seconds) the price is quoted from: full 5-minute parts
 * and the rest, the least the service can bill for this length (a minute per
 * started minute of the whole). The cuts at pauses make the service's own
 * rounding a minute or so more at times: that is our cost, since the charge,
 * settled to what the service measured, never goes above what was held.
 */
export function quotedPartSeconds(seconds: number): number[] {
  const count = Math.max(1, Math.ceil(Math.round(seconds * 1000) / partMaxMs));
  const full = limits.dubbingMaxSeconds;
  return Array.from({ length: count }, (_, i) => (i < count - 1 ? full : seconds - full * (count - 1)));
}

/**
 * Where each cut may fall: around the even split of what is left (so the
 * parts come out alike), never making a part longer than 5 minutes, and late
 * enough for the parts left to hold the rest.
 */
export function cutWindow(
  durationMs: number,
  count: number,
  part: number,
  previous: number,
  windowMs = cutWindowMs,
) {
  const partsLeft = count - part + 1;
  const ideal = previous + (durationMs - previous) / partsLeft;
  return {
    ideal,
    earliest: Math.max(previous + 1, durationMs - (partsLeft - 1) * partMaxMs, ideal - windowMs),
    latest: Math.min(previous + partMaxMs, ideal + windowMs),
  };
}

/**
 * Where to cut a file of `durationMs` into `dubPartCount` parts of at most 5
 * minutes: each cut in the pause nearest the even split of what is left,
 * among those overlapping its window (`cutWindow`), in the pause's middle
 * when that lies in the window; a hard cut at the even split where no pause is
 * near. Returns the cut times in ms, ascending.
 */
export function cutPoints(
  durationMs: number,
  silences: readonly Silence[],
  windowMs = cutWindowMs,
): number[] {
  const count = dubPartCount(durationMs / 1000);
  const cuts: number[] = [];
  let previous = 0;
  for (let part = 1; part < count; part++) {
    const { ideal, earliest, latest } = cutWindow(durationMs, count, part, previous, windowMs);
    let cut = Math.round(ideal);
    let nearest = Number.POSITIVE_INFINITY;
    for (const s of silences) {
      if (s.startMs >= latest || s.endMs <= earliest) continue;
      const at = Math.round(Math.min(latest, Math.max(earliest, (s.startMs + s.endMs) / 2)));
      if (Math.abs(at - ideal) < nearest) {
        nearest = Math.abs(at - ideal);
        cut = at;
      }
    }
    cuts.push(cut);
    previous = cut;
  }
  return cuts;
}
