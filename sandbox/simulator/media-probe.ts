import { parseBuffer } from "music-metadata";
import type { DubbingFormat } from "../../src/platform/media-service/catalog";

/** What the service learns from a dubbing source: format, duration, audio or video. */
export type Probe =
  | { ok: true; format: DubbingFormat; durationSeconds: number; hasVideo: boolean }
  | { ok: false; reason: string };

function formatOf(container: string | undefined, hasVideo: boolean): DubbingFormat | undefined {
  const c = (container ?? "").toLowerCase();
  if (c === "mpeg") return "mp3";
  if (c === "wave") return "wav";
  if (c === "ogg") return "ogg";
  if (c === "ebml/webm") return "webm";
  if (c === "qt" || c.startsWith("qt/")) return "mov";
  if (/\b(m4a|isom|iso\d|mp4\d?|mp41|mp42|avc1|m4v|dash)\b/.test(c.replaceAll("/", " "))) {
    return hasVideo ? "mp4" : c.includes("m4a") ? "m4a" : "mp4";
  }
  return undefined;
}

export async function probeMedia(bytes: Buffer, contentType?: string): Promise<Probe> {
  let meta: Awaited<ReturnType<typeof parseBuffer>>;
  try {
    const mimeType = contentType?.split(";")[0]?.trim() || undefined;
    meta = await parseBuffer(bytes, mimeType ? { mimeType, size: bytes.length } : { size: bytes.length }, {
      duration: true,
      skipCovers: true,
    });
  } catch (e) {
    return {
      ok: false,
      reason: `not a readable audio or video file (${e instanceof Error ? e.message : e})`,
    };
  }
  const hasVideo = meta.format.hasVideo === true;
  const format = formatOf(meta.format.container, hasVideo);
  if (!format) {
    return {
      ok: false,
      reason: `format ${meta.format.container ?? "unknown"} is not one of MP3, WAV, M4A, OGG, WEBM, MP4, MOV`,
    };
  }
  const duration = meta.format.duration;
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0) {
    return { ok: false, reason: "the file has no measurable audio to dub" };
  }
  return { ok: true, format, durationSeconds: Math.round(duration * 1000) / 1000, hasVideo };
}

/** The image formats accepted as references, by their magic bytes. */
export function sniffImage(bytes: Buffer): "png" | "jpeg" | "webp" | "gif" | undefined {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47) return "png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (
    bytes.length >= 12 &&
    bytes.toString("ascii", 0, 4) === "RIFF" &&
    bytes.toString("ascii", 8, 12) === "WEBP"
  )
    return "webp";
  if (bytes.length >= 6 && bytes.toString("ascii", 0, 3) === "GIF") return "gif";
  return undefined;
}
