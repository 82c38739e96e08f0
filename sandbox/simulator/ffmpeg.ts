import { runFfmpeg } from "../../src/platform/ffmpeg/run";
import { onPath } from "../../src/platform/lib/on-path";
import type { DubbingFormat } from "../../src/platform/media-service/catalog";

/** Dubbing by ffmpeg: an output as long as its input, a video's picture kept as it is; and videos as long as ordered. */

/** Whether dubbing can use ffmpeg; without it the simulator serves its 2-second fixtures. */
export const ffmpegAvailable = (): boolean => onPath("ffmpeg");

/** A 5-minute input takes a few seconds; this only stops a stuck process. */
const ffmpegTimeoutMs = 120_000;

/** Runs ffmpeg (a dub, a video of its length) with these arguments (no shell, src/platform/ffmpeg/run.ts); rejects with the end of its stderr when it fails. */
export async function simulatorFfmpeg(args: readonly string[], o: { signal: AbortSignal }): Promise<void> {
  await runFfmpeg({
    program: "ffmpeg",
    args: ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", ...args],
    signal: o.signal,
    timeoutMs: ffmpegTimeoutMs,
  });
}

/** What a dubbing writes: its file name extension (also ffmpeg's muxer), content type, and ffmpeg's arguments. */
export interface DubbingPlan {
  ext: string;
  contentType: string;
  args: (source: string, output: string) => string[];
}

/**
 * The "dubbed" sound: the input's first audio track through a telephone-band
 * filter, mono 64 kb/s, cheap to make and audibly not the original. The rate is
 * set because an encoder's frame is its unit of length: MP3 or AAC at an
 * input's 8 kHz would come out up to a tenth of a second longer than the input;
 * at 44.1 kHz (Opus: 48) the excess is within a video frame.
 */
const dubbedSound = (codec: string, rate: number) => [
  ...["-map", "0:a:0", "-af", "highpass=f=300,lowpass=f=3400"],
  ...["-ac", "1", "-ar", String(rate), "-b:a", "64k", "-c:a", codec],
];

type Container = Omit<DubbingPlan, "args"> & { sound: string[] };
const mp4: Container = { ext: "mp4", contentType: "video/mp4", sound: dubbedSound("aac", 44_100) };
/** A video keeps its container, so that its picture can be copied whatever its codec. */
const videoContainers: Partial<Record<DubbingFormat, Container>> = {
  mov: { ext: "mov", contentType: "video/quicktime", sound: dubbedSound("aac", 44_100) },
  webm: { ext: "webm", contentType: "video/webm", sound: dubbedSound("libopus", 48_000) },
};

/** An audio input gives an MP3; a video its picture, copied, with the dubbed sound as its track. */
export function dubbingPlan(format: DubbingFormat, video: boolean): DubbingPlan {
  if (!video) {
    return {
      ext: "mp3",
      contentType: "audio/mpeg",
      args: (source, output) => [
        ...["-i", source, ...dubbedSound("libmp3lame", 44_100)],
        ...["-compression_level", "9", "-f", "mp3", output],
      ],
    };
  }
  const { ext, contentType, sound } = videoContainers[format] ?? mp4;
  return {
    ext,
    contentType,
    args: (source, output) => ["-i", source, "-map", "0:v:0", ...sound, "-c:v", "copy", "-f", ext, output],
  };
}

/**
 * A video of the length ordered, cheaply: the 2-second fixture played over and
 * over and cut at `seconds`, its streams copied, never encoded.
 */
export function loopedVideoArgs(fixture: string, seconds: number, output: string): string[] {
  return [
    ...["-stream_loop", "-1", "-i", fixture, "-t", String(seconds)],
    ...["-c", "copy", "-movflags", "+faststart", "-f", "mp4", output],
  ];
}
