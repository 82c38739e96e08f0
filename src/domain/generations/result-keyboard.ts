import { InlineKeyboard } from "grammy";
import type { TranslateFor } from "../../platform/i18n/i18n";
import { limits as catalogLimits } from "../../platform/media-service/catalog";
import {
  editResultData,
  regenerateData,
  reportResultData,
  upscaleResultData,
} from "../../platform/telegram/callback-data";
import type { Generation } from "./types";

/**
 * The Mini App's address for a keyboard in `chatId`: Telegram takes web_app
 * buttons only in a private chat with the bot (a positive chat id), so in
 * groups, channels and inline messages there is none (and no link either: the
 * gallery is personal, and the chat's menu button or /history opens it).
 */
export function galleryUrlFor(
  chatId: number | null | undefined,
  miniAppUrl: string | undefined,
): string | undefined {
  return miniAppUrl && chatId !== null && chatId !== undefined && chatId > 0 ? miniAppUrl : undefined;
}

/**
 * The buttons under a delivered result: again (every operation); for pictures,
 * edit them and a 4K version of each (`pictures`: how many were sent as files,
 * since a link has no file id to enlarge). One set per result, sent with it.
 * `galleryUrl` (see `galleryUrlFor`): a last row opening the Mini App; in a
 * group, a last row reporting the result to the admins.
 */
export function resultKeyboard(
  g: Generation,
  t: TranslateFor,
  pictures: number = g.fileIds?.length ?? 0,
  galleryUrl?: string,
  /** the chat it is sent to: a result shown again elsewhere (/history, the Mini App) is reported only in its own group */
  chatId: number | null = g.chatId,
): InlineKeyboard {
  const kb = new InlineKeyboard().text(t(g.language, "btn-regenerate"), regenerateData.make(g.id));
  if (g.operation === "image" || g.operation === "edit") {
    kb.text(t(g.language, "btn-edit-result"), editResultData.make(g.id));
    const count = Math.min(pictures, catalogLimits.numImages.max);
    if (count > 0) kb.row();
    for (let picture = 0; picture < count; picture++) {
      const label =
        count === 1
          ? t(g.language, "btn-upscale")
          : t(g.language, "btn-upscale-one", { number: picture + 1 });
      kb.text(label, upscaleResultData.make({ id: g.id, picture }));
    }
  }
  if (galleryUrl) kb.row().webApp(t(g.language, "btn-gallery"), galleryUrl);
  // in a group, any member may report a result to the bot's admins
  if (chatId !== null && chatId === g.chatId && chatId < 0)
    kb.row().text(t(g.language, "btn-report"), reportResultData.make(g.id));
  return kb;
}
