import { stat } from "node:fs/promises";
import { basename, resolve } from "node:path";
import type { Message } from "grammy/types";
import { mimeFor, type StoredFile } from "./files";
import { solidPng } from "./images";
import { post, type SendOptions, userEntities } from "./user-post";
import { until } from "./user-read";
import { chatOf, type GroupChat, type UserState } from "./user-state";
import type { InlineQueryState } from "./world";

export interface PhotoSpec {
  bytes?: Buffer;
  width?: number;
  height?: number;
  caption?: string;
  mediaGroupId?: string;
  /** file_size to report instead of bytes.length, to play a big file without allocating it */
  declaredSize?: number;
}

export interface FileSpec {
  bytes?: Buffer;
  /**
   * Send the file at this path instead of `bytes`, however big, without reading
   * it into memory: its size is the file's, its name (unless `fileName`) the
   * path's last part, its MIME type (unless `mimeType`) from that name. A local
   * Bot API server copies it into its folder at once; the cloud one reads it
   * from here when the bot downloads it.
   */
  path?: string;
  fileName?: string;
  mimeType?: string;
  duration?: number;
  caption?: string;
  declaredSize?: number;
  width?: number;
  height?: number;
  title?: string;
  performer?: string;
}

type FileKind = "document" | "audio" | "video" | "voice" | "video_note";

type Where = SendOptions & { in?: GroupChat };

function textContent(text: string, entities: ReturnType<typeof userEntities>): Record<string, unknown> {
  return { text, ...(entities.length > 0 ? { entities } : {}) };
}

function captionContent(caption: string): Record<string, unknown> {
  const entities = userEntities(caption);
  return { caption, ...(entities.length > 0 ? { caption_entities: entities } : {}) };
}

export function sendText(user: UserState, text: string, options: SendOptions): Message {
  const entities = [...userEntities(text), ...(options.entities ?? [])].sort((a, b) => a.offset - b.offset);
  return post(user, user.chat, textContent(text, entities), options);
}

export function replyTo(user: UserState, message: Message | number, text: string): Message {
  const target = chatOf(user, message);
  return post(user, target, textContent(text, userEntities(text)), { replyTo: message });
}

/**
 * Forwards a message into the user's private chat with the bot, as Telegram's
 * clients do: a copy of its content that carries `forward_origin`, the
 * original sender, or only their name when they hide their account in forwards.
 */
export function forwardToBot(
  user: UserState,
  original: Message,
  options: { hiddenSender?: boolean },
): Message {
  const sender = original.from;
  if (!sender) throw new Error(`message ${original.message_id} has no sender to forward from`);
  const origin = options.hiddenSender
    ? { type: "hidden_user", date: original.date, sender_user_name: sender.first_name }
    : { type: "user", date: original.date, sender_user: sender };
  const content: Record<string, unknown> = { forward_origin: origin };
  for (const field of ["text", "entities", "caption", "caption_entities", "photo"] as const)
    if (original[field] !== undefined) content[field] = original[field];
  return post(user, user.chat, content, {});
}

export function sendIn(user: UserState, group: GroupChat, text: string, options: SendOptions): Message {
  return post(user, group.state, textContent(text, userEntities(text)), options);
}

export function sendPhoto(user: UserState, photo: PhotoSpec, options: Where): Message {
  const width = photo.width ?? 800;
  const height = photo.height ?? 600;
  const bytes = photo.bytes ?? solidPng(width, height);
  const sizes = user.world.files.photoSizes(bytes, width, height, photo.declaredSize);
  const content: Record<string, unknown> = { photo: sizes };
  if (photo.caption !== undefined) Object.assign(content, captionContent(photo.caption));
  if (photo.mediaGroupId) content.media_group_id = photo.mediaGroupId;
  return post(user, options.in?.state ?? user.chat, content, options);
}

/** Photos as an album: one update per photo, sharing a media_group_id. */
export async function sendAlbum(user: UserState, photos: PhotoSpec[], options: Where): Promise<Message[]> {
  const mediaGroupId = `${13_000_000_000_000_000 + Math.floor(Math.random() * 1e15)}`;
  const sent: Message[] = [];
  // awaited one by one: a waiting getUpdates returns between photos, so an album may span polls
  for (const photo of photos) sent.push(await sendPhoto(user, { ...photo, mediaGroupId }, options));
  return sent;
}

const fileDefaults = {
  document: ["file.pdf", "application/pdf"],
  audio: ["audio.mp3", "audio/mpeg"],
  video: ["video.mp4", "video/mp4"],
  voice: ["voice.ogg", "audio/ogg"],
  video_note: ["video_note.mp4", "video/mp4"],
} as const;

export async function sendFile(
  user: UserState,
  kind: FileKind,
  spec: FileSpec,
  options: Where,
): Promise<Message> {
  const { files } = user.world;
  let file: StoredFile;
  let fileName: string;
  let mime: string;
  const timed = spec.duration !== undefined ? { duration: spec.duration } : {};
  if (spec.path !== undefined) {
    if (spec.bytes || spec.declaredSize !== undefined) {
      throw new Error(
        "a file sent from a path has its own bytes and size: no `bytes` or `declaredSize` beside it",
      );
    }
    const diskPath = resolve(spec.path);
    fileName = spec.fileName ?? basename(diskPath);
    mime = spec.mimeType ?? mimeFor(fileName) ?? "application/octet-stream";
    const { size } = await stat(diskPath);
    file = files.add({ kind, diskPath, size, name: fileName, mime, ...timed });
  } else {
    const bytes = spec.bytes ?? Buffer.alloc(Math.min(spec.declaredSize ?? 1024, 1024), 7);
    fileName = spec.fileName ?? fileDefaults[kind][0];
    mime = spec.mimeType ?? fileDefaults[kind][1];
    file = files.add({
      kind,
      bytes,
      size: spec.declaredSize ?? bytes.length,
      name: fileName,
      mime,
      ...timed,
    });
  }
  // a local server keeps what users send on its disk, so the test's bytes need not stay in memory
  if (files.localDir) await files.keepLocally(file);
  const base = { file_id: file.fileId, file_unique_id: file.uniqueId, file_size: file.size };
  const named = { ...base, file_name: fileName, mime_type: mime };
  const duration = spec.duration ?? 1;
  const body = {
    document: { document: named },
    audio: {
      audio: {
        ...named,
        duration,
        ...(spec.title ? { title: spec.title } : {}),
        ...(spec.performer ? { performer: spec.performer } : {}),
      },
    },
    video: { video: { ...named, duration, width: spec.width ?? 1280, height: spec.height ?? 720 } },
    voice: { voice: { ...base, duration, mime_type: mime } },
    // a round video: no name or MIME type, one side's length
    video_note: { video_note: { ...base, duration, length: spec.width ?? 384 } },
  }[kind];
  const content: Record<string, unknown> = { ...body };
  if (spec.caption !== undefined && kind !== "voice" && kind !== "video_note")
    Object.assign(content, captionContent(spec.caption));
  return post(user, options.in?.state ?? user.chat, content, options);
}

export function inlineQuery(
  user: UserState,
  query: string,
  options: { offset?: string; chatType?: "sender" | "private" | "group" | "supergroup" },
): string {
  const { world, info } = user;
  const id = world.newQueryId();
  world.inlineQueries.set(id, { id, userId: info.id, query, at: Date.now() });
  world.updates.push({
    inline_query: {
      id,
      from: info,
      query,
      offset: options.offset ?? "",
      chat_type: options.chatType ?? "sender",
    },
  });
  return id;
}

export function waitForInlineAnswer(
  user: UserState,
  queryId: string,
  options: { timeoutMs?: number },
): Promise<NonNullable<InlineQueryState["answer"]>> {
  return until(
    user,
    () => user.world.inlineQueries.get(queryId)?.answer,
    options.timeoutMs,
    `no answer to inline query ${queryId}`,
  );
}
