import type { Api } from "grammy";
import type { TranslateFor } from "../bot/i18n";
import type { StatusView } from "../generations/deliver/status-message";
import type { Generation, Generations } from "../generations/service";
import { editInlineText } from "./edit-in-place";

/**
 * The status of a generation confirmed in inline mode, shown in the placed
 * message (by inline_message_id) with the texts of the status table. Once
 * delivered, the message is the result itself (its caption tells the cost).
 * A message that is gone cannot be replaced (an inline message is not ours
 * to send again): what we meant to show is recorded all the same.
 */
export async function showInlineStatus(
  api: Api,
  generations: Pick<Generations, "setStatusShown">,
  g: Generation & { inlineMessageId: string },
  view: StatusView,
  t: TranslateFor,
): Promise<void> {
  if (g.state === "delivered") return;
  const text =
    g.error?.reason === "undeliverable"
      ? t(g.language, "inline-undeliverable", { price: g.charged ?? 0 })
      : view.text;
  if (g.statusShown === text) return;
  await editInlineText(api, g.inlineMessageId, text);
  await generations.setStatusShown(g.id, text);
}
