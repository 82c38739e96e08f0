import { runFfmpeg } from "./run";

/** The sound of every part and of a joined dub: MP3 for audio, AAC beside a copied picture for video. */
const mp3 = ["-c:a", "libmp3lame", "-b:a", "128k"];
const aac = ["-c:a", "aac", "-b:a", "128k"];
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * Cuts the sound of `source` at `cutsMs` into MP3 parts, in one pass (one
 * read, one encode): `<dir>/0.mp3`, `<dir>/1.mp3`, … A video's picture is
 * left out: the parts are dubbed as audio, and the picture is put back when
 * the dubbed parts are joined.
 */
export async function cutSound(
  ffmpeg: string,
  source: string,
  cutsMs: readonly number[],
  dir: string,
  timeoutMs = 30 * 60_000,
): Promise<void> {
  const segments =
    cutsMs.length > 0
      ? ["-f", "segment", "-segment_times", cutsMs.map(seconds).join(",")]
      : ["-f", "segment", "-segment_time", "100000"];
  await runFfmpeg({
    program: ffmpeg,
    args: [
      "-hide_banner",
      "-nostats",
      "-v",
      "error",
      "-i",
      source,
      "-map",
      "0:a:0",
      "-vn",
      ...mp3,
      ...segments,
      "-reset_timestamps",
      "1",
      `${dir}/%d.mp3`,
    ],
    timeoutMs,
  });
}

/**
 * Joins the dubbed parts, in order, into one file at `output`: their sound one
 * after the other (each brought to one sample format first, since the parts
 * need not agree), as MP3, or, given the original `picture` (a video), its
 * video stream copied as it is under the joined sound, as MP4.
 */
export async function joinSound(
  ffmpeg: string,
  parts: readonly string[],
  output: string,
  picture?: string,
  timeoutMs = 30 * 60_000,
): Promise<void> {
  const first = picture ? 1 : 0;
  const inputs = [...(picture ? ["-i", picture] : []), ...parts.flatMap((p) => ["-i", p])];
  const chains = parts.map(
    (_, i) => `[${first + i}:a:0]aresample=44100,aformat=sample_fmts=fltp:channel_layouts=stereo[a${i}]`,
  );
  const concat = `${parts.map((_, i) => `[a${i}]`).join("")}concat=n=${parts.length}:v=0:a=1[sound]`;
  const graph = [...chains, concat].join(";");
  const encode = picture
    ? ["-map", "0:v:0", "-map", "[sound]", "-c:v", "copy", ...aac, "-movflags", "+faststart", "-f", "mp4"]
    : ["-map", "[sound]", ...mp3, "-f", "mp3"];
  await runFfmpeg({
    program: ffmpeg,
    args: [
      "-hide_banner",
      "-nostats",
      "-v",
      "error",
      "-y",
      ...inputs,
      "-filter_complex",
      graph,
      ...encode,
      output,
    ],
    timeoutMs,
  });
}
