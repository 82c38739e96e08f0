import { runFfmpeg } from "./run";

/** Quieter than this, for at least `minSeconds`, is a pause (speech sits around −20 dB and above). */
const noiseDb = -35;
const minSeconds = 0.4;

/**
 * The pauses in a file's sound, read by ffmpeg's silencedetect filter as it
 * streams through the file (its report comes line by line on stderr).
 */
/** A quiet stretch of a recording, in milliseconds from its start. */
export interface Silence {
  startMs: number;
  endMs: number;
}

export async function findSilences(
  ffmpeg: string,
  path: string,
  timeoutMs = 10 * 60_000,
): Promise<Silence[]> {
  const silences: Silence[] = [];
  let start: number | undefined;
  await runFfmpeg({
    program: ffmpeg,
    args: [
      "-hide_banner",
      "-nostats",
      "-i",
      path,
      "-map",
      "0:a:0",
      "-af",
      `silencedetect=noise=${noiseDb}dB:d=${minSeconds}`,
      "-f",
      "null",
      "-",
    ],
    timeoutMs,
    onLine(line) {
      const began = /silence_start: (-?[\d.]+)/.exec(line);
      if (began) start = Math.max(0, Number(began[1]));
      const ended = /silence_end: ([\d.]+)/.exec(line);
      if (ended && start !== undefined) {
        silences.push({ startMs: Math.round(start * 1000), endMs: Math.round(Number(ended[1]) * 1000) });
        start = undefined;
      }
    },
  });
  return silences;
}
