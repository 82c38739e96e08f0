import { type Api, GrammyError, type InlineKeyboard } from "grammy";
import type { Generation, Generations } from "../generations/service";

/**
 * The one status message of a generation, edited in place. An edit to the text
 * already shown is skipped (Telegram would answer "message is not modified"),
 * and a status message that is gone is replaced by a new one.
 */
export async function showStatus(
  api: Api,
  generations: Pick<Generations, "setStatusShown">,
  g: Generation,
  text: string,
  keyboard?: InlineKeyboard,
): Promise<void> {
  if (g.chatId === null) return;
  // what was shown, buttons included; Postgres text cannot hold a NUL, so the marker is plain
  const shown = keyboard ? `${text}\n[buttons]` : text;
  if (g.statusShown === shown) return;
  if (g.statusMessageId) {
    try {
      await api.editMessageText(
        g.chatId,
        g.statusMessageId,
        text,
        keyboard ? { reply_markup: keyboard } : {},
      );
      await generations.setStatusShown(g.id, shown);
      return;
    } catch (err) {
      if (err instanceof GrammyError && /not modified/i.test(err.description)) {
        await generations.setStatusShown(g.id, shown);
        return;
      }
      if (!(err instanceof GrammyError && /not found|can't be edited/i.test(err.description))) throw err;
    }
  }
  const m = await api.sendMessage(g.chatId, text, {
    ...(keyboard ? { reply_markup: keyboard } : {}),
    ...(g.threadId ? { message_thread_id: g.threadId } : {}),
    ...(g.replyToMessageId
      ? { reply_parameters: { message_id: g.replyToMessageId, allow_sending_without_reply: true } }
      : {}),
  });
  await generations.setStatusShown(g.id, shown, m.message_id);
}
