import type { Message } from "grammy/types";
import { z } from "zod";

/** What Telegram made of a file the bot sent: a cached inline result or an edit must name the same type. */
export const sentFileKind = z.enum(["photo", "video", "audio", "document", "voice"]);
export type SentFileKind = z.infer<typeof sentFileKind>;

export interface SentFile {
  fileId: string;
  kind: SentFileKind;
}

/** The file a sent message carries (the largest size of a photo), with its kind; undefined for text. */
export function sentFileOf(m: Message): SentFile | undefined {
  const photo = m.photo?.at(-1);
  if (photo) return { fileId: photo.file_id, kind: "photo" };
  if (m.video) return { fileId: m.video.file_id, kind: "video" };
  if (m.audio) return { fileId: m.audio.file_id, kind: "audio" };
  if (m.document) return { fileId: m.document.file_id, kind: "document" };
  if (m.voice) return { fileId: m.voice.file_id, kind: "voice" };
  return undefined;
}

/**
 * The recorded kinds of a generation's files, index by index; undefined where
 * none was recorded (rows delivered before kinds were kept) or it no longer parses.
 */
export function recordedKinds(fileKinds: unknown): Array<SentFileKind | undefined> {
  if (!Array.isArray(fileKinds)) return [];
  return fileKinds.map((k) => {
    const parsed = sentFileKind.safeParse(k);
    return parsed.success ? parsed.data : undefined;
  });
}
