import { type Api, type InlineKeyboard, InputFile } from "grammy";
import type { InputMediaDocument, InputMediaPhoto, Message } from "grammy/types";
import type { TranslateFor } from "../../../platform/i18n/i18n";
import { releaseChunks } from "../../../platform/lib/release-chunks";
import { shorten } from "../../../platform/lib/shorten";
import type { MediaStore, StoredFile } from "../../../platform/storage/stored-file";
import { describeParams, generationParams, sourceName } from "../params";
import { galleryUrlFor, resultKeyboard } from "../result-keyboard";
import type { Generation } from "../types";
import { type SentFile, type SentFileKind, sentFileOf } from "./sent-file";

export interface TelegramLimits {
  /** Telegram recompresses photos and refuses uploads above this: send a document instead */
  photoMaxBytes: number;
  /** any upload above this goes as a signed link to our storage */
  uploadMaxBytes: number;
  captionMaxLength: number;
}

export const telegramLimits: TelegramLimits = {
  photoMaxBytes: 10 * 1024 * 1024,
  uploadMaxBytes: 50 * 1024 * 1024,
  captionMaxLength: 1024,
};

/** Through a local Bot API server (`telegram-bot-api --local`) the bot uploads files up to 2,000 MB. */
export const localServerLimits: TelegramLimits = { ...telegramLimits, uploadMaxBytes: 2000 * 1000 * 1000 };

export interface DeliveryDeps {
  /** what a delivery sends with: the result's files, its caption or link, edits in place (inline mode), a stale status deleted */
  api: Pick<
    Api,
    | "sendPhoto"
    | "sendVideo"
    | "sendAudio"
    | "sendDocument"
    | "sendMediaGroup"
    | "sendMessage"
    | "sendChatAction"
    | "editMessageText"
    | "editMessageTextInline"
    | "editMessageMediaInline"
    | "deleteMessage"
  >;
  store: Pick<MediaStore, "copy" | "open">;
  t: TranslateFor;
  /** our signed link to a stored result (one too big for Telegram), working for `days` */
  outputUrl(path: string, days: number): string;
  limits?: TelegramLimits;
  /** days our copy of a result is kept: a link to a large output lives as long */
  retentionDays: number;
  /** the Mini App (config.miniAppUrl): a "Gallery" button under results in private chats */
  miniAppUrl?: string | undefined;
}

export interface Delivered {
  messageIds: number[];
  fileIds: string[];
  /** what Telegram made of each file id (parallel to `fileIds`) */
  fileKinds: SentFileKind[];
}

/** Where a result goes: the request's topic, in reply to the request. */
function replyPlace(g: Generation) {
  return {
    ...(g.threadId ? { message_thread_id: g.threadId } : {}),
    ...(g.replyToMessageId
      ? { reply_parameters: { message_id: g.replyToMessageId, allow_sending_without_reply: true } }
      : {}),
  };
}

export function captionOf(g: Generation, t: TranslateFor, limits: TelegramLimits): string {
  const params = generationParams.parse(g.params);
  const described = describeParams(params, (key, vars) => t(g.language, key, vars));
  // a dub names the file it dubbed: the request it replies to may be only "/dub"
  const file = params.operation === "dub" ? sourceName(params.source) : undefined;
  const title = file
    ? `${t(g.language, "dub-caption-file", { file: shorten(file, 200) })}\n${described}`
    : described;
  const lines = [t(g.language, "gen-caption", { prompt: shorten(title, 700), cost: g.charged ?? 0 })];
  if (g.late) lines.push(t(g.language, "gen-late-free"));
  return shorten(lines.join("\n"), limits.captionMaxLength);
}

/**
 * What a player shows for a dubbed track: a name that says what it is (the
 * stored copy is "0.mp3") and its length, read from the file (Telegram
 * does not measure uploads and would show 0:00).
 */
async function audioFacts(
  g: Generation,
  f: StoredFile,
  t: TranslateFor,
  store: Pick<MediaStore, "open">,
): Promise<{ fileName: string; title: string; duration: number | undefined }> {
  const params = generationParams.parse(g.params);
  const extension = f.fileName.includes(".") ? f.fileName.slice(f.fileName.lastIndexOf(".")) : "";
  const label = params.operation === "dub" ? `dubbed-${params.targetLanguage}` : params.operation;
  let duration: number | undefined;
  try {
    // only audio results need it: loaded at the first one
    const { parseStream } = await import("music-metadata");
    const stream = await store.open(f.path);
    const meta = await parseStream(
      stream,
      { mimeType: f.mimeType, size: f.size },
      { duration: true, skipCovers: true },
    ).finally(() => stream.destroy());
    if (meta.format.duration) duration = Math.max(1, Math.round(meta.format.duration));
  } catch {
    // an unreadable container still goes out, without a length
  }
  const title =
    params.operation === "dub" ? describeParams(params, (key, vars) => t(g.language, key, vars)) : label;
  return { fileName: `${label}${extension}`, title, duration };
}

/**
 * An album cannot carry a keyboard: its buttons go on a short message replying
 * to its first item. Not one of the result's messages (delivered ids, file ids)
 * and best effort: the pictures are delivered, so failing here must neither
 * resend the album nor refund it.
 */
async function sendAlbumButtons(
  g: Generation,
  deps: DeliveryDeps,
  album: Message[],
  keyboard: InlineKeyboard,
): Promise<void> {
  const first = album[0];
  if (g.chatId === null || !first) return;
  await deps.api
    .sendMessage(g.chatId, deps.t(g.language, "ra-actions"), {
      reply_markup: keyboard,
      reply_parameters: { message_id: first.message_id, allow_sending_without_reply: true },
      ...(g.threadId ? { message_thread_id: g.threadId } : {}),
    })
    .catch(() => undefined);
}

/**
 * Sends a generation's outputs, copied to our storage first, into the chat and
 * topic of the request. Uploads come from files we can read again, so a retry
 * after a failed send re-uploads the same bytes.
 */
export async function deliverOutputs(
  g: Generation,
  deps: DeliveryDeps,
  copied: Promise<StoredFile[]> = copyOutputs(g, deps.store),
): Promise<Delivered> {
  if (g.chatId === null) throw new Error(`generation ${g.id} has no chat to deliver to`);
  const limits = deps.limits ?? telegramLimits;
  const chatId = g.chatId;
  const action =
    g.operation === "video" ? "upload_video" : g.operation === "dub" ? "upload_voice" : "upload_photo";
  // "sending a photo…" while the copy and the upload run: it never holds them up (a 429 on it
  // would wait in the auto-retry), and a lost chat action is no reason to fail
  const showing = deps.api
    .sendChatAction(chatId, action, g.threadId ? { message_thread_id: g.threadId } : {})
    .catch(() => undefined);
  try {
    return await sendFiles(g, deps, chatId, limits, await copied);
  } finally {
    await showing;
  }
}

/**
 * A stored file as an upload to Telegram, streamed from the store: a supplier,
 * not a stream, so a retried send (429, network) opens the file again.
 */
export function uploadOf(store: Pick<MediaStore, "open">, f: StoredFile, fileName = f.fileName): InputFile {
  return new InputFile(async () => releaseChunks(await store.open(f.path)), fileName);
}

/** Our copies of a generation's outputs, side by side; a slot copied before is reused. */
export function copyOutputs(g: Generation, store: Pick<MediaStore, "copy">): Promise<StoredFile[]> {
  const outputs = (g.outputs ?? []) as Array<{ url: string }>;
  return Promise.all(outputs.map((o, i) => store.copy(g.id, i, o.url)));
}

async function sendFiles(
  g: Generation,
  deps: DeliveryDeps,
  chatId: number,
  limits: TelegramLimits,
  files: StoredFile[],
): Promise<Delivered> {
  const caption = captionOf(g, deps.t, limits);
  const upload = (f: StoredFile) => uploadOf(deps.store, f);
  const sent: Message[] = [];

  const tooBig = files.filter((f) => f.size > limits.uploadMaxBytes);
  const sendable = files.filter((f) => f.size <= limits.uploadMaxBytes);
  // one set of buttons per result, sent with its last message: the link to what was too big
  // to upload, or else the file itself (the album's own message); a 4K only for a picture sent as a file
  const keyboard = resultKeyboard(g, deps.t, sendable.length, galleryUrlFor(chatId, deps.miniAppUrl));
  const buttonsOnFiles = tooBig.length === 0;
  const buttons = (carries: boolean) => (carries ? { reply_markup: keyboard } : {});

  if (g.operation === "image" || g.operation === "edit") {
    const asDocuments = sendable.some(
      (f) => f.size > limits.photoMaxBytes || !f.mimeType.startsWith("image/"),
    );
    if (sendable.length === 1) {
      const f = sendable[0]!;
      const other = { caption, ...buttons(buttonsOnFiles), ...replyPlace(g) };
      sent.push(
        asDocuments
          ? await deps.api.sendDocument(chatId, upload(f), other)
          : await deps.api.sendPhoto(chatId, upload(f), other),
      );
    } else if (sendable.length > 1) {
      const media = sendable.map((f, i) =>
        asDocuments
          ? ({
              type: "document",
              media: upload(f),
              ...(i === 0 ? { caption } : {}),
            } satisfies InputMediaDocument)
          : ({ type: "photo", media: upload(f), ...(i === 0 ? { caption } : {}) } satisfies InputMediaPhoto),
      );
      const group = asDocuments
        ? await deps.api.sendMediaGroup(chatId, media as InputMediaDocument[], replyPlace(g))
        : await deps.api.sendMediaGroup(chatId, media as InputMediaPhoto[], replyPlace(g));
      sent.push(...group);
      if (buttonsOnFiles) await sendAlbumButtons(g, deps, group, keyboard);
    }
  } else {
    for (const [i, f] of sendable.entries()) {
      const other = { caption, ...buttons(buttonsOnFiles && i === sendable.length - 1), ...replyPlace(g) };
      if (f.mimeType.startsWith("video/")) sent.push(await deps.api.sendVideo(chatId, upload(f), other));
      else if (f.mimeType.startsWith("audio/")) {
        const facts = await audioFacts(g, f, deps.t, deps.store);
        sent.push(
          await deps.api.sendAudio(chatId, uploadOf(deps.store, f, facts.fileName), {
            ...other,
            title: facts.title,
            ...(facts.duration ? { duration: facts.duration } : {}),
          }),
        );
      } else sent.push(await deps.api.sendDocument(chatId, upload(f), other));
    }
  }

  if (tooBig.length > 0) {
    const links = tooBig.map((f) => deps.outputUrl(f.path, deps.retentionDays));
    sent.push(
      await deps.api.sendMessage(
        chatId,
        [caption, deps.t(g.language, "gen-too-big-link", { days: deps.retentionDays }), ...links].join("\n"),
        { ...buttons(true), link_preview_options: { is_disabled: true }, ...replyPlace(g) },
      ),
    );
  }

  const sentFiles = sent.map(sentFileOf).filter((f): f is SentFile => f !== undefined);
  return {
    messageIds: sent.map((m) => m.message_id),
    fileIds: sentFiles.map((f) => f.fileId),
    fileKinds: sentFiles.map((f) => f.kind),
  };
}
