import type { Api } from "grammy";
import type { InputMediaPhoto } from "grammy/types";
import type { Translate } from "../../platform/i18n/i18n";
import { isTelegramFailure } from "../../platform/telegram/telegram-error";
import { resultKeyboard } from "./result-keyboard";
import type { Generation } from "./types";

export type ResendApi = Pick<
  Api,
  "sendPhoto" | "sendMediaGroup" | "sendDocument" | "sendVideo" | "sendAudio" | "sendChatAction"
>;

/** Where a result is sent again: a chat, and its topic. */
export interface ResendPlace {
  chatId: number;
  threadId?: number | undefined;
  /** the Mini App's address for a "Gallery" button under it (see `galleryUrlFor`) */
  galleryUrl?: string | undefined;
  /** sent without the result's buttons (a copy for the admins, say) */
  plain?: boolean;
}

/** Telegram refuses a file_id sent as the wrong kind; a document takes any file. */
async function withDocumentFallback<T>(send: () => Promise<T>, asDocument: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (isTelegramFailure(err, "rejected")) return asDocument();
    throw err;
  }
}

/** "sending a photo…" is cosmetic: its failure is no reason not to send the result. */
async function showing(action: Promise<true>): Promise<void> {
  await action.catch(() => undefined);
}

/**
 * Sends a delivered result again by its Telegram file_ids: no new upload, no
 * new cost (/history's "show" and the Mini App's "send to chat").
 */
export async function resendResult(
  api: ResendApi,
  place: ResendPlace,
  g: Generation,
  caption: string,
  /** the buttons' words, in the reader's language */
  t: Translate,
): Promise<void> {
  const { chatId } = place;
  const topic = place.threadId ? { message_thread_id: place.threadId } : {};
  const fileIds = g.fileIds ?? [];
  const other = {
    ...topic,
    caption,
    ...(place.plain
      ? {}
      : {
          reply_markup: resultKeyboard(
            g,
            (_language, key, vars) => t(key, vars),
            undefined,
            place.galleryUrl,
            place.chatId,
          ),
        }),
  };
  const document = (id: string) => () => api.sendDocument(chatId, id, other).then(() => undefined);
  if (g.operation === "image" || g.operation === "edit") {
    await showing(api.sendChatAction(chatId, "upload_photo", topic));
    if (fileIds.length === 1) {
      const id = fileIds[0]!;
      await withDocumentFallback(() => api.sendPhoto(chatId, id, other).then(() => undefined), document(id));
      return;
    }
    const media = fileIds
      .slice(0, 10)
      .map((id, i): InputMediaPhoto => ({ type: "photo", media: id, ...(i === 0 ? { caption } : {}) }));
    await withDocumentFallback(
      () => api.sendMediaGroup(chatId, media, topic).then(() => undefined),
      async () => {
        for (const id of fileIds) await api.sendDocument(chatId, id, topic);
      },
    );
    return;
  }
  const kind = g.operation === "video" ? "video" : (g.params as { kind?: string }).kind;
  await showing(api.sendChatAction(chatId, kind === "video" ? "upload_video" : "upload_voice", topic));
  for (const id of fileIds) {
    await withDocumentFallback(
      () =>
        (kind === "video" ? api.sendVideo(chatId, id, other) : api.sendAudio(chatId, id, other)).then(
          () => undefined,
        ),
      document(id),
    );
  }
}
