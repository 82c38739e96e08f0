import type { Api, InlineKeyboard } from "grammy";
import { isTelegramFailure } from "./telegram-error";

/**
 * Edits the text of a message placed in inline mode; an edit to what it
 * already says, or of a message deleted since, changes nothing (an inline
 * message is not ours to send again).
 */
export async function editInlineText(
  api: Pick<Api, "editMessageTextInline">,
  inlineMessageId: string,
  text: string,
  keyboard?: InlineKeyboard,
): Promise<void> {
  try {
    await api.editMessageTextInline(inlineMessageId, text, keyboard ? { reply_markup: keyboard } : {});
  } catch (err) {
    if (!isTelegramFailure(err, "not-modified", "message-gone")) throw err;
  }
}
