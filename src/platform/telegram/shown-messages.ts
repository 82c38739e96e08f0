import type { Transformer } from "grammy";
import type { CallbackQuery, Message } from "grammy/types";
import { z } from "zod";

/**
 * What this process last knew each recent message to show (its text and
 * buttons), and which button presses it already answered. An edit that would
 * change nothing, and a second answer to a press, are not sent: Telegram would
 * refuse them ("message is not modified", "query is too old"), and each still
 * costs a request from the flood budget. A skipped edit answers like Telegram's
 * "not modified", which every caller already accepts; a skipped answer answers true.
 *
 * Knowledge comes from the bot's own sends and edits and from every pressed
 * message (a callback query carries the message as it is now); it is per
 * process and bounded, so an unknown message is simply edited.
 */
export interface ShownMessages {
  /** install on every Api the bot sends with (bot.api, and the conversations' own) */
  readonly transformer: Transformer;
  /** learns the pressed message's current text and buttons */
  notePressed(query: CallbackQuery): void;
  answered(queryId: string): boolean;
}

interface Shown {
  text?: string;
  buttons: string;
  /** the message's edit_date (or date): a press carries the message as it was when pressed */
  version: number;
}

const remembered = 5_000;
const notModified = {
  ok: false as const,
  error_code: 400,
  description:
    "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
};

const target = z.object({ chat_id: z.union([z.number(), z.string()]), message_id: z.number() });
const textEdit = target.extend({ text: z.string(), reply_markup: z.unknown().optional() });
const markupEdit = target.extend({ reply_markup: z.unknown().optional() });
// only what is compared; the rest of a message (sender, chat details, entities) is not copied
const sentMessage = z.object({
  message_id: z.number(),
  chat: z.object({ id: z.number() }),
  date: z.number(),
  edit_date: z.number().optional(),
  text: z.string().optional(),
  reply_markup: z.unknown().optional(),
});
const answer = z.object({ callback_query_id: z.string() });

const inlineKeyboard = z.object({ inline_keyboard: z.array(z.array(z.unknown())) });

/** Buttons as a comparable string; no keyboard and an empty one are the same. */
function buttonsOf(markup: unknown): string {
  const parsed = inlineKeyboard.safeParse(markup);
  if (!parsed.success) return "";
  const rows = parsed.data.inline_keyboard.filter((row) => row.length > 0);
  return rows.length === 0 ? "" : JSON.stringify(rows);
}

/** Edits with entities or a parse mode are compared by Telegram after parsing: not predicted here. */
const plainEdit = (payload: Record<string, unknown>) =>
  payload.parse_mode === undefined &&
  payload.entities === undefined &&
  payload.inline_message_id === undefined;

export function createShownMessages(): ShownMessages {
  const messages = new Map<string, Shown>();
  const answers = new Map<string, true>();
  const keyOf = (chatId: number | string, messageId: number) => `${chatId}:${messageId}`;

  function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > remembered) map.delete(map.keys().next().value as K);
  }

  /** `pressed`: seen in a press, which may predate the bot's own latest edit of it */
  function noteMessage(m: unknown, pressed = false): void {
    const parsed = sentMessage.safeParse(m);
    if (!parsed.success) return;
    const { chat, message_id, text, reply_markup, date, edit_date } = parsed.data;
    const key = keyOf(chat.id, message_id);
    const version = edit_date ?? date;
    const known = messages.get(key);
    if (pressed && known && known.version >= version) return;
    remember(messages, key, {
      ...(text !== undefined ? { text } : {}),
      buttons: buttonsOf(reply_markup),
      version,
    });
  }

  const transformer: Transformer = async (prev, method, payload, signal) => {
    const p = payload as Record<string, unknown>;
    if (method === "answerCallbackQuery") {
      const a = answer.safeParse(p);
      if (a.success && answers.has(a.data.callback_query_id)) return { ok: true, result: true } as never;
      const result = await prev(method, payload, signal);
      if (a.success && result.ok) remember(answers, a.data.callback_query_id, true);
      return result;
    }
    if (method === "editMessageText" && plainEdit(p)) {
      const e = textEdit.safeParse(p);
      if (e.success) {
        const known = messages.get(keyOf(e.data.chat_id, e.data.message_id));
        if (known?.text === e.data.text && known.buttons === buttonsOf(e.data.reply_markup))
          return notModified;
      }
    }
    if (method === "editMessageReplyMarkup" && p.inline_message_id === undefined) {
      const e = markupEdit.safeParse(p);
      if (e.success) {
        const known = messages.get(keyOf(e.data.chat_id, e.data.message_id));
        if (known && known.buttons === buttonsOf(e.data.reply_markup)) return notModified;
      }
    }
    const result = await prev(method, payload, signal);
    if (result.ok && typeof result.result === "object") noteMessage(result.result);
    return result;
  };

  return {
    transformer,
    notePressed(query) {
      if (query.message && "date" in query.message && query.message.date !== 0) {
        noteMessage(query.message as Message, true);
      }
    },
    answered: (queryId) => answers.has(queryId),
  };
}
