import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Speech-like sound for tests, made by ffmpeg: tone bursts of `burst` seconds
 * with `gap` seconds of silence after each, over `seconds` in all; a small MP3,
 * or CD-quality WAV (10.6 MB a minute) where a test needs a big file.
 */
export async function speechLike(
  path: string,
  seconds: number,
  shape = { burst: 7, gap: 1.5 },
  format: "mp3" | "wav" = "mp3",
): Promise<void> {
  const period = shape.burst + shape.gap;
  const encode =
    format === "mp3" ? ["-ac", "1", "-c:a", "libmp3lame", "-b:a", "32k"] : ["-ac", "2", "-c:a", "pcm_s16le"];
  const rate = format === "mp3" ? 22050 : 44100;
  await run("ffmpeg", [
    ...[
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      `sine=frequency=330:sample_rate=${rate}:duration=${seconds}`,
    ],
    ...["-af", `volume='if(lt(mod(t,${period}),${shape.burst}),1,0)':eval=frame`],
    ...encode,
    path,
  ]);
}

/** A small video (a test picture at 160×120, 5 frames a second) with speech-like sound, `seconds` long. */
export async function videoWithSpeech(path: string, seconds: number): Promise<void> {
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc=size=160x120:rate=5:duration=${seconds}`],
    ...["-f", "lavfi", "-i", `sine=frequency=330:sample_rate=22050:duration=${seconds}`],
    ...["-af", "volume='if(lt(mod(t,8.5),7),1,0)':eval=frame"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-crf", "40", "-pix_fmt", "yuv420p"],
    ...["-c:a", "aac", "-b:a", "32k", "-ac", "1", "-shortest", path],
  ]);
}

/** What ffprobe reads of a file: its length and its kinds of streams. */
export async function probe(path: string): Promise<{ seconds: number; video: boolean; audio: boolean }> {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-show_entries", "format=duration:stream=codec_type", "-of", "json", path],
  ]);
  const parsed = JSON.parse(stdout) as {
    format?: { duration?: string };
    streams?: Array<{ codec_type?: string }>;
  };
  const kinds = new Set((parsed.streams ?? []).map((s) => s.codec_type));
  return { seconds: Number(parsed.format?.duration), video: kinds.has("video"), audio: kinds.has("audio") };
}
