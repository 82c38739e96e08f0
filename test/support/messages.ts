import type { InlineKeyboardButton, Message } from "grammy/types";
import type { BotMessage } from "../../sandbox/playground/telegram";

/** A bot's text without the isolation marks Fluent puts around placeables (for right-to-left text). */
export const plain = (text: string | undefined) => (text ?? "").replace(/[\u2068\u2069]/g, "");
/** A message whose text contains `part`. */
export const says = (part: string) => (m: BotMessage) => plain(m.text).includes(part);
/** An inline button carrying exactly this callback data. */
export const byData = (data: string) => (b: InlineKeyboardButton) =>
  "callback_data" in b && b.callback_data === data;
export const buttons = (m: BotMessage | Message) => m.reply_markup?.inline_keyboard.flat() ?? [];
/** A message with a button carrying this callback data. */
export const hasData = (data: string) => (m: BotMessage) => buttons(m).some(byData(data));
