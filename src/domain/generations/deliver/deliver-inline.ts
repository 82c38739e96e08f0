import type { Api } from "grammy";
import type { InputMediaAudio, InputMediaDocument, InputMediaPhoto, InputMediaVideo } from "grammy/types";
import type { StoredFile } from "../../../platform/storage/stored-file";
import { classifyTelegramError, isTelegramFailure } from "../../../platform/telegram/telegram-error";
import type { DeliveryRecords } from "../delivery-records";
import type { Generation } from "../types";
import { captionOf, type Delivered, type DeliveryDeps, telegramLimits, uploadOf } from "./send-outputs";
import { recordedKinds, type SentFile, sentFileOf } from "./sent-file";

export interface InlineDeliveryDeps extends DeliveryDeps {
  /** also takes back the upload to the user's private chat, once the placed message shows the file */
  api: DeliveryDeps["api"] & Pick<Api, "deleteMessage">;
  /** where results are uploaded to get a file_id (INLINE_STORAGE_CHAT_ID); the user's private chat when unset */
  inlineStorageChatId?: number | undefined;
  generations: Pick<DeliveryRecords, "recordUploaded">;
}

type UploadKind = "photo" | "video" | "document";
type ShownMedia = InputMediaPhoto | InputMediaVideo | InputMediaAudio | InputMediaDocument;

function kindOf(f: StoredFile, photoMaxBytes: number): UploadKind {
  if (f.mimeType.startsWith("video/")) return "video";
  if (f.mimeType.startsWith("image/") && f.size <= photoMaxBytes) return "photo";
  return "document";
}

type ShownFile = SentFile & { kind: ShownMedia["type"] };
const showable = (f: SentFile | undefined): f is ShownFile => f !== undefined && f.kind !== "voice";

/** The file an earlier attempt uploaded and recorded, if one did: shown again without a second upload. */
function uploadedBefore(g: Generation): ShownFile | undefined {
  const fileId = g.fileIds?.[0];
  const kind = recordedKinds(g.fileKinds)[0];
  const file = fileId !== undefined && kind !== undefined ? { fileId, kind } : undefined;
  return showable(file) ? file : undefined;
}

/**
 * Uploads the output where a file_id can be had, and records that file_id
 * before anything else; `privateCopy`: the message it made in the user's
 * private chat (when there is no storage chat).
 */
async function upload(
  g: Generation,
  deps: InlineDeliveryDeps,
  caption: string,
): Promise<ShownFile & { privateCopy?: number }> {
  const limits = deps.limits ?? telegramLimits;
  const output = ((g.outputs ?? []) as Array<{ url: string }>)[0];
  if (!output) throw new Error(`generation ${g.id} has no output to show`);
  const file = await deps.store.copy(g.id, 0, output.url);
  const kind = kindOf(file, limits.photoMaxBytes);
  const storage = deps.inlineStorageChatId;
  const target = storage ?? g.userId;
  // in the user's own chat the copy is theirs: it gets the caption; in the storage chat it is only a file
  const other = { disable_notification: true, ...(storage === undefined ? { caption } : {}) };
  const input = uploadOf(deps.store, file);
  const sent =
    kind === "photo"
      ? await deps.api.sendPhoto(target, input, other)
      : kind === "video"
        ? await deps.api.sendVideo(target, input, other)
        : await deps.api.sendDocument(target, input, other);
  const got = sentFileOf(sent);
  if (!showable(got)) throw new Error(`Telegram returned no file_id for the ${kind} of generation ${g.id}`);
  await deps.generations.recordUploaded(g.id, [got.fileId], [got.kind]);
  return storage === undefined ? { ...got, privateCopy: sent.message_id } : got;
}

/**
 * Shows a result in the message placed in inline mode. An inline message
 * cannot take an upload, so the output (copied to our storage first) is sent
 * to the storage chat, or to the user's private chat with the bot, and the
 * placed message is edited to that file_id. An upload to the private chat is
 * deleted once the placed message shows it: the result belongs where it was
 * placed, not out of context in the private chat (an attempt cut short in
 * between leaves it there). The file_id is recorded as soon as it is known:
 * an attempt after a crash shows
 * it without a second upload, and an edit to the same file that is "not
 * modified" counts as done. A private chat the bot cannot write to (the user
 * blocked it since Confirm) fails the send with a 403: the caller refunds and
 * says so in place.
 */
export async function deliverInline(
  g: Generation & { inlineMessageId: string },
  deps: InlineDeliveryDeps,
): Promise<Delivered> {
  const limits = deps.limits ?? telegramLimits;
  const caption = captionOf(g, deps.t, limits);
  const file: ShownFile & { privateCopy?: number } = uploadedBefore(g) ?? (await upload(g, deps, caption));
  const media: ShownMedia = { type: file.kind, media: file.fileId, caption };
  try {
    await deps.api.editMessageMediaInline(g.inlineMessageId, media);
  } catch (err) {
    // shown already (an attempt before a crash got this far)
    const shown = isTelegramFailure(err, "not-modified");
    // the placed message was deleted: the result stands in the user's private chat all the same
    const keptPrivately = deps.inlineStorageChatId === undefined && isTelegramFailure(err, "message-gone");
    if (!shown && !keptPrivately) throw err;
    if (keptPrivately) return { messageIds: [], fileIds: [file.fileId], fileKinds: [file.kind] };
  }
  if (file.privateCopy !== undefined) {
    await deps.api.deleteMessage(g.userId, file.privateCopy).catch((err: unknown) => {
      // cosmetic: the result is shown where it was placed either way
      if (!classifyTelegramError(err)) throw err;
    });
  }
  return { messageIds: [], fileIds: [file.fileId], fileKinds: [file.kind] };
}
