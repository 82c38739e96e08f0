import { randomBytes } from "node:crypto";
import type { PhotoSize } from "grammy/types";

export type FileKind =
  | "photo"
  | "video"
  | "audio"
  | "document"
  | "voice"
  | "animation"
  | "video_note"
  | "sticker";

export interface StoredFile {
  fileId: string;
  uniqueId: string;
  kind: FileKind;
  /** file_size as Telegram reports it; may exceed `bytes.length` when a test declared a size */
  size: number;
  bytes: Buffer;
  name?: string;
  mime?: string;
  path: string;
  width?: number;
  height?: number;
  duration?: number;
}

const idPrefix: Record<FileKind, string> = {
  photo: "AgACAgIAAxk",
  video: "BAACAgIAAxk",
  audio: "CQACAgIAAxk",
  document: "BQACAgIAAxk",
  voice: "AwACAgIAAxk",
  animation: "CgACAgIAAxk",
  video_note: "DQACAgIAAxk",
  sticker: "CAACAgIAAxk",
};

const folder: Record<FileKind, string> = {
  photo: "photos",
  video: "videos",
  audio: "music",
  document: "documents",
  voice: "voice",
  animation: "animations",
  video_note: "video_notes",
  sticker: "stickers",
};

const mimeByExtension: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/x-wav",
  pdf: "application/pdf",
  txt: "text/plain",
  json: "application/json",
  zip: "application/zip",
};

const defaultExtension: Record<FileKind, string> = {
  photo: "jpg",
  video: "mp4",
  audio: "mp3",
  document: "dat",
  voice: "oga",
  animation: "mp4",
  video_note: "mp4",
  sticker: "webp",
};

export function extensionOf(name: string | undefined): string | undefined {
  const m = name ? /\.([a-zA-Z0-9]{1,8})$/.exec(name) : null;
  return m?.[1]?.toLowerCase();
}

/** Telegram derives a MIME type from the name; the generic one a client sends tells it nothing. */
export function mimeFor(name: string | undefined, sent?: string): string | undefined {
  const ext = extensionOf(name);
  if (ext && mimeByExtension[ext]) return mimeByExtension[ext];
  if (sent && sent !== "application/octet-stream") return sent;
  return sent;
}

const random = (bytes: number) => randomBytes(bytes).toString("base64url");

export interface NewFile {
  kind: FileKind;
  bytes: Buffer;
  size?: number;
  name?: string;
  mime?: string;
  width?: number;
  height?: number;
  duration?: number;
}

export class FileStore {
  private readonly byId = new Map<string, StoredFile>();
  private readonly byPath = new Map<string, StoredFile>();
  private readonly photoSets = new Map<string, PhotoSize[]>();
  private counter = 0;

  add(file: NewFile): StoredFile {
    this.counter += 1;
    const ext = extensionOf(file.name) ?? defaultExtension[file.kind];
    const stored: StoredFile = {
      ...file,
      size: file.size ?? file.bytes.length,
      fileId: `${idPrefix[file.kind]}${random(42)}`,
      uniqueId: `AQAD${random(9)}`,
      path: `${folder[file.kind]}/file_${this.counter}.${ext}`,
    };
    this.byId.set(stored.fileId, stored);
    this.byPath.set(stored.path, stored);
    return stored;
  }

  get(fileId: string): StoredFile | undefined {
    return this.byId.get(fileId);
  }

  atPath(path: string): StoredFile | undefined {
    return this.byPath.get(path);
  }

  /** All sizes of the photo a file_id belongs to, so a photo resent by id keeps them. */
  photoSetOf(fileId: string): PhotoSize[] | undefined {
    return this.photoSets.get(fileId);
  }

  /** The sizes Telegram would make of a photo: thumbnails and the photo capped at 2560 px. */
  photoSizes(bytes: Buffer, width: number, height: number, size?: number): PhotoSize[] {
    const longest = Math.max(width, height);
    const targets = [90, 320, 800, 1280, 2560].filter((t) => t < longest);
    targets.push(Math.min(longest, 2560));
    const sizes = targets.map((target, index): PhotoSize => {
      const scale = target / longest;
      const w = Math.max(1, Math.round(width * scale));
      const h = Math.max(1, Math.round(height * scale));
      const isLargest = index === targets.length - 1;
      const file = this.add({
        kind: "photo",
        bytes,
        size: isLargest ? size : bytes.length,
        width: w,
        height: h,
        mime: "image/jpeg",
      });
      return {
        file_id: file.fileId,
        file_unique_id: file.uniqueId,
        file_size: file.size,
        width: w,
        height: h,
      };
    });
    for (const size of sizes) this.photoSets.set(size.file_id, sizes);
    return sizes;
  }
}
