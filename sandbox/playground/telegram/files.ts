import { randomBytes } from "node:crypto";
import { constants, readFileSync, statSync } from "node:fs";
import { copyFile, link, mkdir, stat, truncate, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
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

/**
 * Where a file's bytes are: in memory, or in a file on disk that is read only
 * when asked for (a big upload in local-server mode, a file a test user sent from a path).
 */
export type FileContent = { bytes: Buffer; diskPath?: undefined } | { diskPath: string; bytes?: undefined };

export interface StoredFile {
  fileId: string;
  uniqueId: string;
  kind: FileKind;
  /** file_size as Telegram reports it; may exceed the bytes in memory when a test declared a size */
  size: number;
  content: FileContent;
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

export type NewFile = FileContent & {
  kind: FileKind;
  /** by default the bytes' length, or the size of the file on disk */
  size?: number;
  name?: string;
  mime?: string;
  width?: number;
  height?: number;
  duration?: number;
};

export class FileStore {
  private readonly byId = new Map<string, StoredFile>();
  private readonly byPath = new Map<string, StoredFile>();
  private readonly photoSets = new Map<string, PhotoSize[]>();
  /** files being written to localDir, so two getFile calls at once write once */
  private readonly placing = new Map<string, Promise<string>>();
  private counter = 0;

  /**
   * `localDir`: local-server mode, the bot's folder (`<filesDir>/<token>`, as
   * telegram-bot-api --local lays it out) where files are kept and getFile's
   * absolute paths point.
   */
  constructor(readonly localDir?: string) {}

  add(file: NewFile): StoredFile {
    this.counter += 1;
    const { bytes: _bytes, diskPath: _diskPath, ...meta } = file;
    const content: FileContent =
      file.bytes !== undefined ? { bytes: file.bytes } : { diskPath: file.diskPath };
    const ext = extensionOf(file.name) ?? defaultExtension[file.kind];
    const stored: StoredFile = {
      ...meta,
      content,
      size:
        file.size ?? (content.bytes !== undefined ? content.bytes.length : statSync(content.diskPath).size),
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

  /** By file_path: the relative one, or in local-server mode also the absolute one getFile gave. */
  atPath(path: string): StoredFile | undefined {
    const local =
      this.localDir && path.startsWith(`${this.localDir}/`) ? path.slice(this.localDir.length + 1) : path;
    return this.byPath.get(local);
  }

  /** A file's bytes, read from disk when it lives there (in memory they may fall short of a declared size). */
  read(file: StoredFile): Buffer {
    const { content } = file;
    return content.bytes !== undefined ? content.bytes : readFileSync(content.diskPath);
  }

  /**
   * Local-server mode: the file's absolute path in localDir, putting it there
   * first, as telegram-bot-api --local downloads a file to its disk for
   * getFile. A declared size beyond the bytes is padded with zeros (a sparse
   * file: nothing is allocated), as the download route pads it. From then on
   * the file lives on disk only, and its bytes in memory can be collected.
   * `source: "ours"`: the file on disk is the stand-in's own (a spooled
   * upload, deleted after the call), so it is hard-linked rather than copied.
   */
  keepLocally(file: StoredFile, source: "ours" | "theirs" = "theirs"): Promise<string> {
    if (!this.localDir) throw new Error("the stand-in keeps files on disk only as a local Bot API server");
    const target = join(this.localDir, file.path);
    if (file.content.diskPath === target) return Promise.resolve(target);
    let placing = this.placing.get(file.fileId);
    if (!placing) {
      placing = this.place(file, target, source).finally(() => this.placing.delete(file.fileId));
      this.placing.set(file.fileId, placing);
    }
    return placing;
  }

  private async place(file: StoredFile, target: string, source: "ours" | "theirs"): Promise<string> {
    await mkdir(dirname(target), { recursive: true });
    const { content } = file;
    if (content.bytes !== undefined) {
      await writeFile(target, content.bytes);
    } else if (source === "ours") {
      await link(content.diskPath, target).catch(() => copyFile(content.diskPath, target));
    } else {
      // a copy, so the test's own file stays its own; a reflink where the filesystem has them
      await copyFile(content.diskPath, target, constants.COPYFILE_FICLONE);
    }
    if ((await stat(target)).size < file.size) await truncate(target, file.size);
    file.content = { diskPath: target };
    return target;
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
