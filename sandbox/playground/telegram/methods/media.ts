import { readFile } from "node:fs/promises";
import type { Message } from "grammy/types";
import { z } from "zod";
import { ApiError, badRequest } from "../errors";
import { type FileContent, type FileKind, mimeFor, type NewFile, type StoredFile } from "../files";
import { imageSize } from "../images";
import { type FileInput, fileInput, type Params } from "../params";
import { type InputMediaParam, inputMediaSchema } from "../schemas";
import type { MethodHandler, World } from "../world";
import {
  applyEdit,
  captionOf,
  countFlood,
  editableMessage,
  formattedCaption,
  placeOf,
  postBotMessage,
  replyMarkupOf,
  sendContext,
} from "./common";

const mediaFields = ["photo", "video", "audio", "document", "animation", "voice", "video_note"] as const;

/**
 * editMessageMedia on an inline message with a file upload (multipart,
 * attach://): Telegram refuses it with a 400. Its exact wording is not
 * documented; this one says what the Bot API documentation says.
 */
export const inlineUploadRefused =
  "can't upload a new file to an inline message: use a file_id or an HTTP URL";

interface MediaHints {
  width?: number;
  height?: number;
  duration?: number;
  title?: string;
  performer?: string;
  fileName?: string;
}

async function fetchUrl(w: World, url: string, kind: FileKind): Promise<{ bytes: Buffer; mime?: string }> {
  const limit = kind === "photo" ? w.rules.maxPhotoUrlBytes : w.rules.maxUrlBytes;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(w.clock.toReal(30_000)) });
  } catch {
    throw badRequest("failed to get HTTP URL content");
  }
  if (!response.ok) throw badRequest("failed to get HTTP URL content");
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > limit) throw badRequest("failed to get HTTP URL content");
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > limit) throw badRequest("failed to get HTTP URL content");
  const mime = response.headers.get("content-type")?.split(";")[0]?.trim();
  if (kind === "photo" && mime && !mime.startsWith("image/"))
    throw badRequest("wrong type of the web page content");
  return { bytes, ...(mime ? { mime } : {}) };
}

/** Turns an upload, URL or file_id into a stored file, with Telegram's checks for each way. */
async function resolveFile(
  w: World,
  input: FileInput,
  kind: FileKind,
): Promise<{ file: StoredFile; reused: boolean }> {
  if (input.kind === "id") {
    const file = w.files.get(input.fileId);
    if (!file) throw badRequest("wrong file identifier/HTTP URL specified");
    if ((file.kind === "photo") !== (kind === "photo")) throw badRequest("type of file mismatch");
    return { file, reused: true };
  }
  let content: FileContent;
  let size: number;
  let name: string | undefined;
  let mime: string | undefined;
  if (input.kind === "upload") {
    const upload = input.file;
    size = upload.size;
    name = upload.name;
    mime = mimeFor(name, upload.mime);
    if (size > w.rules.maxUploadBytes) throw new ApiError(413, "Request Entity Too Large");
    if (kind === "photo" && size > w.rules.maxPhotoUploadBytes) throw badRequest("PHOTO_SAVE_FILE_INVALID");
    content = upload.bytes !== undefined ? { bytes: upload.bytes } : { diskPath: upload.diskPath };
  } else {
    const fetched = await fetchUrl(w, input.url, kind);
    content = { bytes: fetched.bytes };
    size = fetched.bytes.length;
    name = new URL(input.url).pathname.split("/").pop() || undefined;
    mime = mimeFor(name, fetched.mime);
  }
  if (size === 0) throw badRequest("file must be non-empty");
  let dimensions: { width: number; height: number } | undefined;
  if (kind === "photo") {
    // at most 10 MB: a spooled photo is read back to look at it
    const bytes = content.bytes !== undefined ? content.bytes : await readFile(content.diskPath);
    dimensions = imageSize(bytes);
    if (!dimensions) throw badRequest("IMAGE_PROCESS_FAILED");
    const { width, height } = dimensions;
    if (width + height > 10_000 || Math.max(width, height) / Math.max(1, Math.min(width, height)) > 20) {
      throw badRequest("PHOTO_INVALID_DIMENSIONS");
    }
    content = { bytes };
  }
  const file: NewFile = { kind, ...content, name: name || undefined, mime, ...dimensions };
  const stored = w.files.add(file);
  // a spooled upload is removed after the call: the local server's copy is linked into its folder now
  if (stored.content.diskPath !== undefined) await w.files.keepLocally(stored, "ours");
  return { file: stored, reused: false };
}

/** The message fields Telegram shows for a file of this kind. */
function mediaContent(w: World, kind: FileKind, file: StoredFile, reused: boolean, hints: MediaHints) {
  const base = { file_id: file.fileId, file_unique_id: file.uniqueId, file_size: file.size };
  const named = {
    ...((hints.fileName ?? file.name) ? { file_name: hints.fileName ?? file.name } : {}),
    ...(file.mime ? { mime_type: file.mime } : {}),
  };
  const duration = hints.duration ?? file.duration ?? 0;
  switch (kind) {
    case "photo": {
      const sizes =
        (reused ? w.files.photoSetOf(file.fileId) : undefined) ??
        w.files.photoSizes(w.files.read(file), file.width ?? 1, file.height ?? 1, file.size);
      return { photo: sizes };
    }
    case "video":
      return {
        video: {
          ...base,
          ...named,
          width: hints.width ?? file.width ?? 0,
          height: hints.height ?? file.height ?? 0,
          duration,
        },
      };
    case "animation": {
      const animation = {
        ...base,
        ...named,
        width: hints.width ?? file.width ?? 0,
        height: hints.height ?? file.height ?? 0,
        duration,
      };
      return { animation, document: { ...base, ...named } };
    }
    case "audio":
      return {
        audio: {
          ...base,
          ...named,
          duration,
          ...(hints.title ? { title: hints.title } : {}),
          ...(hints.performer ? { performer: hints.performer } : {}),
        },
      };
    case "voice":
      return { voice: { ...base, duration, mime_type: file.mime ?? "audio/ogg" } };
    case "video_note":
      return { video_note: { ...base, length: hints.width ?? 240, duration } };
    default:
      return { document: { ...base, ...named } };
  }
}

function hintsOf(p: Params): MediaHints {
  const hints: MediaHints = {};
  for (const key of ["width", "height", "duration"] as const) {
    const v = p.int(key);
    if (v !== undefined) hints[key] = v;
  }
  const title = p.string("title");
  const performer = p.string("performer");
  if (title) hints.title = title;
  if (performer) hints.performer = performer;
  return hints;
}

function sendFile(kind: FileKind): MethodHandler {
  return async (w, p) => {
    const { chat, extra, markup } = sendContext(w, p);
    const input = p.file(kind);
    if (!input) throw badRequest(`there is no ${kind} in the request`);
    const caption = kind === "video_note" ? {} : captionOf(w, p);
    const { file, reused } = await resolveFile(w, input, kind);
    countFlood(w, chat);
    const content = mediaContent(w, kind, file, reused, hintsOf(p));
    const spoiler = p.bool("has_media_spoiler") ? { has_media_spoiler: true } : {};
    return postBotMessage(w, chat, { ...content, ...caption, ...spoiler, ...extra }, markup);
  };
}

function itemHints(item: InputMediaParam): MediaHints {
  const hints: MediaHints = {};
  if (item.width !== undefined) hints.width = item.width;
  if (item.height !== undefined) hints.height = item.height;
  if (item.duration !== undefined) hints.duration = item.duration;
  if (item.title) hints.title = item.title;
  if (item.performer) hints.performer = item.performer;
  return hints;
}

function checkAlbumKinds(kinds: string[]): void {
  for (const lonely of ["audio", "document"]) {
    if (kinds.includes(lonely) && kinds.some((k) => k !== lonely)) {
      throw badRequest(`${lonely} can't be mixed with other media types`);
    }
  }
  if (kinds.includes("animation")) throw badRequest("wrong type of media in the media group");
}

export const mediaMethods: Record<string, MethodHandler> = {
  sendPhoto: sendFile("photo"),
  sendVideo: sendFile("video"),
  sendAudio: sendFile("audio"),
  sendDocument: sendFile("document"),
  sendVoice: sendFile("voice"),
  sendAnimation: sendFile("animation"),
  sendVideoNote: sendFile("video_note"),

  async sendMediaGroup(w, p) {
    // Telegram has no reply_markup on albums: it is not a parameter, so it is ignored.
    const { chat, extra } = sendContext(w, p, { markup: false });
    const items = p.json("media", z.array(inputMediaSchema), "media");
    if (!items || items.length < w.rules.mediaGroupMin || items.length > w.rules.mediaGroupMax) {
      throw badRequest(`array of media must contain ${w.rules.mediaGroupMin}-${w.rules.mediaGroupMax} items`);
    }
    checkAlbumKinds(items.map((i) => i.type));
    const captions = items.map((item) =>
      formattedCaption(w, item.caption, item.parse_mode, item.caption_entities),
    );
    const resolved: Array<{ file: StoredFile; reused: boolean }> = [];
    for (const item of items) resolved.push(await resolveFile(w, fileInput(item.media, p.files), item.type));
    countFlood(w, chat);
    const groupId = `${13_000_000_000_000_000 + Math.floor(Math.random() * 1e15)}`;
    return items.map((item, i) => {
      const { file, reused } = resolved[i]!;
      const content = mediaContent(w, item.type, file, reused, itemHints(item));
      const spoiler = item.has_spoiler ? { has_media_spoiler: true } : {};
      return postBotMessage(w, chat, {
        ...content,
        ...captions[i],
        ...spoiler,
        media_group_id: groupId,
        ...extra,
      });
    });
  },

  editMessageCaption(w, p) {
    const { chat, stored, inline } = editableMessage(w, p);
    if (!mediaFields.some((f) => stored.message[f] !== undefined)) {
      throw badRequest("there is no caption in the message to edit");
    }
    const caption = captionOf(w, p);
    const markup = replyMarkupOf(w, p, placeOf(chat, inline), true);
    const { caption: _c, caption_entities: _e, reply_markup: _r, ...rest } = stored.message;
    const edited = applyEdit(w, chat, stored, {
      ...rest,
      ...caption,
      ...(markup ? { reply_markup: markup } : {}),
    } as Message);
    return inline ? true : edited;
  },

  async editMessageMedia(w, p) {
    const { chat, stored, inline } = editableMessage(w, p);
    // an inline message sent as text may become a photo (the usual "placeholder, then result")
    if (!inline && !mediaFields.some((f) => stored.message[f] !== undefined)) {
      throw badRequest("there is no media in the message to edit");
    }
    const item = p.json("media", inputMediaSchema, "media");
    if (!item) throw badRequest("media is empty");
    const input = fileInput(item.media, p.files);
    // Telegram cannot take an upload into an inline message: only a file_id or a URL
    if (inline && input.kind === "upload") throw badRequest(inlineUploadRefused);
    if (stored.message.media_group_id) checkAlbumKinds([item.type, ...albumKinds(chat, stored.message)]);
    const caption = formattedCaption(w, item.caption, item.parse_mode, item.caption_entities);
    const markup = replyMarkupOf(w, p, placeOf(chat, inline), true);
    const { file, reused } = await resolveFile(w, input, item.type);
    const rest: Record<string, unknown> = { ...stored.message };
    for (const key of [
      ...mediaFields,
      "text",
      "entities",
      "link_preview_options",
      "caption",
      "caption_entities",
      "reply_markup",
      "has_media_spoiler",
    ]) {
      delete rest[key];
    }
    const content = mediaContent(w, item.type, file, reused, itemHints(item));
    const edited = applyEdit(w, chat, stored, {
      ...rest,
      ...content,
      ...caption,
      ...(markup ? { reply_markup: markup } : {}),
    } as Message);
    return inline ? true : edited;
  },

  async getFile(w, p) {
    const id = p.string("file_id");
    if (!id) throw badRequest("file_id is empty");
    const file = w.files.get(id);
    if (!file) throw badRequest("invalid file_id");
    if (file.size > w.rules.maxDownloadBytes) throw badRequest("file is too big");
    return {
      file_id: file.fileId,
      file_unique_id: file.uniqueId,
      file_size: file.size,
      // a local server answers the absolute path of its copy on disk, which the bot reads itself
      file_path: w.files.localDir ? await w.files.keepLocally(file) : file.path,
    };
  },
};

function albumKinds(
  chat: { messages: Array<{ message: Message; deleted: boolean }> },
  message: Message,
): string[] {
  return chat.messages
    .filter((m) => !m.deleted && m.message.media_group_id === message.media_group_id)
    .filter((m) => m.message.message_id !== message.message_id)
    .map((m) => mediaFields.find((f) => m.message[f] !== undefined) ?? "document")
    .map((k) => (k === "animation" ? "document" : k));
}
