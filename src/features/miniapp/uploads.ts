import { type Api, InputFile } from "grammy";
import type { Message } from "grammy/types";
import { telegramLimits } from "../../domain/generations/deliver/send-outputs";
import {
  type Checked,
  type DubInputRules,
  type InputProblem,
  mediaIn,
  photoIn,
} from "../../domain/generations/inputs";
import type { Translate } from "../../platform/i18n/i18n";
import { dubbingFormats } from "../../platform/media-service/catalog";
import { classifyTelegramError } from "../../platform/telegram/telegram-error";
import type { UploadResponse } from "./contract";
import type { KeptInputs } from "./inputs";
import type { GalleryLinks } from "./media-links";

export interface UploadDeps {
  api: Pick<Api, "sendPhoto" | "sendDocument" | "sendAudio" | "sendVideo">;
  inputs: Pick<KeptInputs, "keep">;
  links: GalleryLinks;
  /** where uploads go for a file_id (INLINE_STORAGE_CHAT_ID, as inline results); the user's private chat when unset */
  storageChatId: number | undefined;
  /** how long and how big a dubbing source may be, as in the chat */
  dubRules: DubInputRules;
}

export type Uploaded =
  | { ok: true; answer: UploadResponse }
  | { ok: false; error: "invalid"; message: string }
  /** Telegram would not take it (the user never opened the bot's chat, or blocked it) */
  | { ok: false; error: "not_available"; message: string };

type Media = UploadResponse["media"];

/** What a file is by its type or name: a picture (edit), audio or video (dubbing); undefined for anything else. */
function mediaOf(file: File): Media | undefined {
  const type = file.type.toLowerCase();
  if (type.startsWith("image/")) return "photo";
  if (type.startsWith("video/")) return "video";
  if (type.startsWith("audio/")) return "audio";
  const extension = file.name.toLowerCase().split(".").at(-1) ?? "";
  if (!(dubbingFormats as readonly string[]).includes(extension)) return undefined;
  return extension === "mp4" || extension === "mov" || extension === "webm" ? "video" : "audio";
}

/** The length of audio or video, read from its bytes (Telegram does not measure what a bot uploads). */
async function durationOf(bytes: Uint8Array, mimeType: string): Promise<number | undefined> {
  try {
    const { parseBuffer } = await import("music-metadata");
    const meta = await parseBuffer(bytes, { mimeType }, { duration: true, skipCovers: true });
    const d = meta.format.duration;
    return d !== undefined && Number.isFinite(d) && d > 0 ? Math.ceil(d) : undefined;
  } catch {
    return undefined;
  }
}

function problemText(t: Translate, problem: InputProblem): string {
  const { key, ...vars } = problem;
  return t(key, vars);
}

/**
 * A file from the device becomes an input the way a file sent in the chat
 * does: uploaded to Telegram (the storage chat, or the user's own chat, as
 * inline results are), then checked by the chat's own rules on the message
 * Telegram made of it (photoIn, mediaIn: sizes, lengths, kinds), and kept
 * for the user under an id of its own.
 */
export async function uploadInput(
  deps: UploadDeps,
  userId: number,
  file: File,
  t: Translate,
): Promise<Uploaded> {
  const media = mediaOf(file);
  // neither a picture nor audio or video: the chat's answer to a file it cannot use
  if (!media) return { ok: false, error: "invalid", message: t("cv-media-not-media") };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const seconds = media === "photo" ? undefined : await durationOf(bytes, file.type);
  const input = new InputFile(bytes, file.name || "upload");
  const target = deps.storageChatId ?? userId;
  const quiet = { disable_notification: true };
  const timed = seconds !== undefined ? { ...quiet, duration: seconds } : quiet;
  let sent: Message;
  try {
    sent =
      media === "photo"
        ? bytes.byteLength > telegramLimits.photoMaxBytes
          ? await deps.api.sendDocument(target, input, quiet)
          : await deps.api.sendPhoto(target, input, quiet)
        : media === "video"
          ? await deps.api.sendVideo(target, input, timed)
          : await deps.api.sendAudio(target, input, timed);
  } catch (err) {
    // Telegram refusing the file itself (IMAGE_PROCESS_FAILED, PHOTO_INVALID_DIMENSIONS...) is the
    // file's fault, told as the chat tells a wrong file; an unreachable chat is not
    if (classifyTelegramError(err)?.kind === "rejected")
      return {
        ok: false,
        error: "invalid",
        message: t(media === "photo" ? "cv-photo-not-image" : "cv-media-not-media"),
      };
    return { ok: false, error: "not_available", message: t("error-generic") };
  }
  const checked: Checked<{ ref: { kind: string; fileId?: string } }> | undefined =
    media === "photo" ? photoIn(sent) : mediaIn(sent, deps.dubRules);
  if (!checked) return { ok: false, error: "invalid", message: t("cv-media-not-media") };
  if (!checked.ok) return { ok: false, error: "invalid", message: problemText(t, checked.problem) };
  const fileId = checked.value.ref.kind === "telegram" ? checked.value.ref.fileId : undefined;
  if (!fileId) return { ok: false, error: "invalid", message: t("cv-media-not-media") };
  const durationSeconds =
    seconds ?? (media === "photo" ? undefined : (sent.audio?.duration ?? sent.video?.duration));
  const id = await deps.inputs.keep({
    userId,
    ref: { kind: "telegram", fileId },
    media,
    ...(durationSeconds ? { durationSeconds } : {}),
  });
  return {
    ok: true,
    answer: {
      input: { kind: "upload", id, url: deps.links.telegram(fileId) },
      media,
      ...(durationSeconds ? { durationSeconds } : {}),
    },
  };
}
