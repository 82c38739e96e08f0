import { InlineKeyboard } from "grammy";
import type { TranslateFor } from "../bot/i18n";
import { limits as catalogLimits } from "../media/catalog";
import { editResultData, regenerateData, upscaleResultData } from "../telegram/callback-data";
import type { Generation } from "./types";

/**
 * The buttons under a delivered result: again (every operation); for pictures,
 * edit them and a 4K version of each (`pictures`: how many were sent as files,
 * since a link has no file id to enlarge). One set per result, sent with it.
 */
export function resultKeyboard(
  g: Generation,
  t: TranslateFor,
  pictures: number = g.fileIds?.length ?? 0,
): InlineKeyboard {
  const kb = new InlineKeyboard().text(t(g.language, "btn-regenerate"), regenerateData.make(g.id));
  if (g.operation !== "image" && g.operation !== "edit") return kb;
  kb.text(t(g.language, "btn-edit-result"), editResultData.make(g.id));
  const count = Math.min(pictures, catalogLimits.numImages.max);
  if (count > 0) kb.row();
  for (let picture = 0; picture < count; picture++) {
    const label =
      count === 1 ? t(g.language, "btn-upscale") : t(g.language, "btn-upscale-one", { number: picture + 1 });
    kb.text(label, upscaleResultData.make({ id: g.id, picture }));
  }
  return kb;
}
