import { InlineKeyboard } from "grammy";
import type { TranslateFor } from "../bot/i18n";
import { limits as catalogLimits } from "../media/catalog";
import { editResultData, regenerateData, upscaleResultData } from "../telegram/callback-data";
import type { Generation } from "./types";

/**
 * The buttons of a delivered result: again (every operation); for pictures, edit
 * them and a 4K version of each picture sent as a file (a link has no file id).
 * A delivery shows them once, on the status message that says Done: the sent
 * files carry none, since an album cannot carry a keyboard.
 */
export function resultKeyboard(g: Generation, t: TranslateFor): InlineKeyboard {
  const kb = new InlineKeyboard().text(t(g.language, "btn-regenerate"), regenerateData.make(g.id));
  if (g.operation !== "image" && g.operation !== "edit") return kb;
  kb.text(t(g.language, "btn-edit-result"), editResultData.make(g.id));
  const count = Math.min(g.fileIds?.length ?? 0, catalogLimits.numImages.max);
  if (count > 0) kb.row();
  for (let picture = 0; picture < count; picture++) {
    const label =
      count === 1 ? t(g.language, "btn-upscale") : t(g.language, "btn-upscale-one", { number: picture + 1 });
    kb.text(label, upscaleResultData.make({ id: g.id, picture }));
  }
  return kb;
}
