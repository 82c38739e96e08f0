import type { Message } from "grammy/types";
import { z } from "zod";
import type { Config } from "../../platform/config/config";
import { dubbingFormats } from "../../platform/media-service/catalog";
import type { InputRef } from "./params";

/** Telegram lets bots download files up to 20 MB (cloud Bot API). */
export const telegramDownloadMaxBytes = 20 * 1024 * 1024;
const megabytes = (bytes: number) => Math.ceil(bytes / (1024 * 1024));

/** A reference picture for an edit, with its size when Telegram tells it. */
export interface PhotoInput {
  ref: InputRef;
  width?: number;
  height?: number;
}

/** The file to dub. A link's duration is read before pricing (link-length.ts); unknown, it is priced at the service's maximum. */
export interface MediaInput {
  ref: InputRef;
  kind?: "audio" | "video";
  durationSeconds?: number;
  /** what the summary calls it: a file name or the link */
  label: string;
  /** the message that brought it, which the result answers (when it is not the request's own) */
  messageId?: number;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: InputProblem };

export type InputProblem =
  | { key: "cv-photo-sticker" }
  | { key: "cv-photo-not-image" }
  | { key: "cv-file-too-big-telegram"; size: number }
  /** a dubbing upload over what the Bot API hands out; `limit`: the largest file taken as a link (MB) */
  | { key: "cv-dub-upload-too-big"; size: number; limit: number }
  | { key: "cv-file-too-big-service"; size: number; limit: number }
  /** `limit`: the longest file dubbed (minutes) */
  | { key: "cv-media-too-long"; minutes: number; seconds: number; limit: number }
  | { key: "cv-media-not-media" }
  | { key: "cv-link-not-https" };

const httpsUrl = z.url({ protocol: /^https$/ });
const anyLink = /^(?:https?:\/\/)\S+$/i;

/** The https link a text consists of; `not-https` for an http link; undefined for other text. */
export function linkIn(text: string): { ok: true; url: string } | { ok: false } | undefined {
  const trimmed = text.trim();
  if (!anyLink.test(trimmed)) return undefined;
  const parsed = httpsUrl.safeParse(trimmed);
  return parsed.success ? { ok: true, url: parsed.data } : { ok: false };
}

/** What a dubbing source may be: how long, and how big as an upload and at all. */
export interface DubInputRules {
  /** DUB_MAX_MINUTES, in seconds: longer files are dubbed in parts up to this */
  maxSeconds: number;
  /** the largest upload the bot can read: 20 MB through the cloud Bot API, more through a local server */
  uploadMaxBytes: number;
  /** the largest source at all (DUB_SOURCE_MAX_MB), a link's download included */
  sourceMaxBytes: number;
}

export const defaultDubInputRules: DubInputRules = {
  maxSeconds: 60 * 60,
  uploadMaxBytes: telegramDownloadMaxBytes,
  sourceMaxBytes: 2000 * 1000 * 1000,
};

export function dubInputRules(config: Pick<Config, "dub" | "telegram">): DubInputRules {
  const { sourceMaxBytes, maxMinutes } = config.dub;
  return {
    maxSeconds: maxMinutes * 60,
    uploadMaxBytes: config.telegram.localFiles ? sourceMaxBytes : telegramDownloadMaxBytes,
    sourceMaxBytes,
  };
}

function tooBig(size: number | undefined, rules: DubInputRules): InputProblem | undefined {
  if (size === undefined || size <= rules.uploadMaxBytes) return undefined;
  const limit = Math.floor(rules.sourceMaxBytes / 1_000_000);
  // over what a link may bring too, or a local server already gave all it can: only a smaller file helps
  return size > rules.sourceMaxBytes || rules.uploadMaxBytes >= rules.sourceMaxBytes
    ? { key: "cv-file-too-big-service", size: megabytes(size), limit }
    : { key: "cv-dub-upload-too-big", size: megabytes(size), limit };
}

/** The picture a message carries (a photo or an image sent as a file). */
export function photoIn(m: Message | undefined): Checked<PhotoInput> | undefined {
  if (!m) return undefined;
  const best = m.photo?.at(-1);
  const image = m.document?.mime_type?.startsWith("image/") ? m.document : undefined;
  if (!best && !image) {
    if (m.sticker) return { ok: false, problem: { key: "cv-photo-sticker" } };
    return undefined;
  }
  const size = best?.file_size ?? image?.file_size;
  if (size !== undefined && size > telegramDownloadMaxBytes) {
    return { ok: false, problem: { key: "cv-file-too-big-telegram", size: megabytes(size) } };
  }
  if (best) {
    return {
      ok: true,
      value: {
        ref: {
          kind: "telegram",
          fileId: best.file_id,
          fileUniqueId: best.file_unique_id,
          size: best.file_size,
        },
        width: best.width,
        height: best.height,
      },
    };
  }
  const doc = image!;
  return {
    ok: true,
    value: {
      ref: {
        kind: "telegram",
        fileId: doc.file_id,
        fileUniqueId: doc.file_unique_id,
        size: doc.file_size,
        mimeType: doc.mime_type,
        ...(doc.file_name ? { fileName: doc.file_name } : {}),
      },
    },
  };
}

function extensionOf(name: string | undefined): string | undefined {
  return name?.toLowerCase().split(".").at(-1);
}

/** The audio or video a message carries (audio, voice, video, video note, or such a file). */
export function mediaIn(
  m: Message | undefined,
  rules: DubInputRules = defaultDubInputRules,
): Checked<MediaInput> | undefined {
  if (!m) return undefined;
  const file = m.audio ?? m.voice ?? m.video ?? m.video_note ?? m.document;
  if (!file) {
    if (m.sticker || m.photo) return { ok: false, problem: { key: "cv-media-not-media" } };
    return undefined;
  }
  const mime = "mime_type" in file ? file.mime_type : undefined;
  const name = "file_name" in file ? file.file_name : undefined;
  if (m.document) {
    const known =
      mime?.startsWith("audio/") ||
      mime?.startsWith("video/") ||
      (dubbingFormats as readonly string[]).includes(extensionOf(name) ?? "");
    if (!known) return { ok: false, problem: { key: "cv-media-not-media" } };
  }
  const big = tooBig(file.file_size, rules);
  if (big) return { ok: false, problem: big };
  const duration = "duration" in file ? file.duration : undefined;
  if (duration !== undefined && duration > rules.maxSeconds)
    return { ok: false, problem: tooLong(duration, rules) };
  const isVideo = Boolean(m.video ?? m.video_note) || Boolean(mime?.startsWith("video/"));
  return {
    ok: true,
    value: {
      ref: {
        kind: "telegram",
        fileId: file.file_id,
        fileUniqueId: file.file_unique_id,
        size: file.file_size,
        ...(mime ? { mimeType: mime } : {}),
        ...(name ? { fileName: name } : {}),
      },
      kind: isVideo ? "video" : "audio",
      ...(duration !== undefined ? { durationSeconds: duration } : {}),
      label: name ?? (m.voice ? "voice" : isVideo ? "video" : "audio"),
    },
  };
}

/** A file longer than the longest dubbed, as the user is told. */
export function tooLong(seconds: number, rules: DubInputRules): InputProblem {
  const total = Math.round(seconds);
  return {
    key: "cv-media-too-long",
    minutes: Math.floor(total / 60),
    seconds: total % 60,
    limit: Math.floor(rules.maxSeconds / 60),
  };
}
