import type { Message, MessageEntity } from "grammy/types";
import { type ChatState, describeKeyboard, describeMessage, isGroupChat } from "../chats";
import { badRequest } from "../errors";
import { parseFormatted, trimFormatted, withDetectedEntities } from "../formatting";
import type { Params } from "../params";
import {
  entitiesSchema,
  type InlineButton,
  type ReplyMarkup,
  replyMarkupSchema,
  replyParametersSchema,
} from "../schemas";
import type { World } from "../world";

const inlineActions = [
  "callback_data",
  "url",
  "web_app",
  "login_url",
  "switch_inline_query",
  "switch_inline_query_current_chat",
  "switch_inline_query_chosen_chat",
  "copy_text",
  "callback_game",
  "pay",
] as const;

export function formattedText(w: World, p: Params): { text: string; entities?: MessageEntity[] } {
  const raw = p.string("text");
  if (raw === undefined || raw === "") throw badRequest("message text is empty");
  const given = p.json("entities", entitiesSchema, "entities");
  const formatted = trimFormatted(
    given ? { text: raw, entities: given as MessageEntity[] } : parseFormatted(raw, p.string("parse_mode")),
  );
  if (formatted.text === "") throw badRequest("message text is empty");
  if (formatted.text.length > w.rules.maxTextLength) throw badRequest("message is too long");
  const detected = withDetectedEntities(formatted);
  return detected.entities.length > 0 ? detected : { text: detected.text };
}

export function formattedCaption(
  w: World,
  raw: string | undefined,
  parseMode: string | undefined,
  given?: unknown[],
): { caption?: string; caption_entities?: MessageEntity[] } {
  if (raw === undefined || raw === "") return {};
  const formatted = trimFormatted(
    given ? { text: raw, entities: given as MessageEntity[] } : parseFormatted(raw, parseMode),
  );
  if (formatted.text.length > w.rules.maxCaptionLength) throw badRequest("message caption is too long");
  if (formatted.text === "") return {};
  return formatted.entities.length > 0
    ? { caption: formatted.text, caption_entities: formatted.entities }
    : { caption: formatted.text };
}

export function captionOf(w: World, p: Params) {
  return formattedCaption(
    w,
    p.string("caption"),
    p.string("parse_mode"),
    p.json("caption_entities", entitiesSchema),
  );
}

/**
 * A Web App's address as Telegram takes it: http(s), and https only unless the
 * rules allow plain http (Telegram's test environment does, and so do tests).
 */
export function checkWebAppUrl(w: World, url: string, error: string): void {
  const allowed = w.rules.webAppRequireHttps ? /^https:\/\/\S+$/i : /^https?:\/\/\S+$/i;
  if (!allowed.test(url)) throw badRequest(error);
}

/** Where a keyboard is shown: web_app buttons work only in a private chat with the bot, never in an inline message. */
export interface MarkupPlace {
  webApps: boolean;
}

export const placeOf = (chat: ChatState, inline = false): MarkupPlace => ({
  webApps: chat.chat.type === "private" && !inline,
});

function checkInlineButton(w: World, button: InlineButton, place: MarkupPlace): void {
  const actions = inlineActions.filter((a) => button[a] !== undefined);
  if (button.text === "") throw badRequest("BUTTON_TEXT_INVALID");
  if (actions.length === 0) {
    throw badRequest("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard");
  }
  if (actions.length > 1)
    throw badRequest("can't parse inline keyboard button: only one action field is allowed");
  if (button.callback_data !== undefined) {
    const bytes = Buffer.byteLength(button.callback_data, "utf8");
    if (bytes < 1 || bytes > w.rules.maxCallbackDataBytes) throw badRequest("BUTTON_DATA_INVALID");
  }
  if (button.url !== undefined && !/^(https?|tg):\/\/\S+$/i.test(button.url))
    throw badRequest("BUTTON_URL_INVALID");
  if (button.web_app !== undefined) {
    if (!place.webApps) throw badRequest("BUTTON_TYPE_INVALID");
    checkWebAppUrl(w, button.web_app.url, "BUTTON_URL_INVALID");
  }
}

function isInlineKeyboard(markup: ReplyMarkup): markup is { inline_keyboard: InlineButton[][] } {
  return Array.isArray((markup as { inline_keyboard?: unknown }).inline_keyboard);
}

/** reply_markup, checked like Telegram for where it is shown; `inlineOnly` for edits and inline messages. */
export function replyMarkupOf(
  w: World,
  p: Params,
  place: MarkupPlace,
  inlineOnly = false,
): ReplyMarkup | undefined {
  const markup = p.json("reply_markup", replyMarkupSchema, "reply markup");
  if (!markup) return undefined;
  if (isInlineKeyboard(markup)) {
    for (const row of markup.inline_keyboard) for (const button of row) checkInlineButton(w, button, place);
  } else if (inlineOnly) {
    throw badRequest("inline keyboard expected");
  }
  return markup;
}

/** The message this one answers, as reply_parameters or the older reply_to_message_id ask. */
function replyOf(chat: ChatState, p: Params): { reply_to_message?: Message } {
  const params = p.json("reply_parameters", replyParametersSchema, "reply parameters");
  const id = params?.message_id ?? p.int("reply_to_message_id");
  if (id === undefined) return {};
  const target = chat.byId.get(id);
  if (!target || target.deleted) {
    if (params?.allow_sending_without_reply || p.bool("allow_sending_without_reply")) return {};
    throw badRequest("message to be replied not found");
  }
  const { reply_to_message: _nested, ...quoted } = target.message;
  return { reply_to_message: quoted as Message };
}

/** message_thread_id: checked in forums, inherited from the message replied to. */
function threadOf(
  chat: ChatState,
  p: Params,
  replyTo?: Message,
): { message_thread_id?: number; is_topic_message?: true } {
  const requested =
    p.int("message_thread_id") ?? (replyTo?.is_topic_message ? replyTo.message_thread_id : undefined);
  if (requested === undefined) return {};
  const forum = chat.chat.type === "supergroup" && chat.chat.is_forum === true;
  if (!forum) return chat.chat.type === "supergroup" ? { message_thread_id: requested } : {};
  if (!chat.topics.has(requested)) throw badRequest("message thread not found");
  return { message_thread_id: requested, is_topic_message: true };
}

export function countFlood(w: World, chat: ChatState, global = true): void {
  w.flood.take(chat.chat.id, isGroupChat(chat.chat), { global });
}

/** Stores a message from the bot, logs it and wakes waiting tests. */
export function postBotMessage(
  w: World,
  chat: ChatState,
  content: Record<string, unknown>,
  markup?: ReplyMarkup,
): Message {
  const message = w.chats.add(chat, content, w.botUser, true);
  if (markup && !isInlineKeyboard(markup)) {
    chat.keyboard = "keyboard" in markup ? markup : undefined;
    w.chats.stored(chat, message.message_id)!.sentMarkup = markup;
  }
  w.chats.log(
    chat,
    `bot #${message.message_id}: ${describeMessage(message)}${markup && !isInlineKeyboard(markup) ? describeKeyboard(markup) : ""}`,
  );
  w.notify();
  return message;
}

/** Everything a send method shares: target chat, reply, thread and markup. */
export function sendContext(w: World, p: Params, options: { markup?: boolean } = {}) {
  const chat = w.chats.target(p.chatId());
  const reply = replyOf(chat, p);
  const thread = threadOf(chat, p, reply.reply_to_message);
  const markup = options.markup === false ? undefined : replyMarkupOf(w, p, placeOf(chat));
  const extra: Record<string, unknown> = { ...reply, ...thread };
  if (markup && isInlineKeyboard(markup)) extra.reply_markup = markup;
  if (p.bool("protect_content")) extra.has_protected_content = true;
  return { chat, extra, markup };
}

/**
 * A bot message to change, by chat and message id or by inline_message_id (a
 * message a user sent via the bot): errors as Telegram gives them. Edits of an
 * inline message answer `true`, not the Message.
 */
export function editableMessage(w: World, p: Params) {
  if (p.has("inline_message_id")) {
    const placed = w.inlineMessages.get(p.string("inline_message_id") ?? "");
    const chat = placed ? w.chats.get(placed.chatId) : undefined;
    const stored = placed && chat ? chat.byId.get(placed.messageId) : undefined;
    if (!chat || !stored || stored.deleted) throw badRequest("MESSAGE_ID_INVALID");
    return { chat, stored, inline: true };
  }
  const chat = w.chats.target(p.chatId());
  const id = p.int("message_id");
  if (id === undefined) throw badRequest("message identifier is not specified");
  const stored = chat.byId.get(id);
  if (!stored || stored.deleted) throw badRequest("message to edit not found");
  if (!stored.fromBot) throw badRequest("message can't be edited");
  return { chat, stored, inline: false };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Applies an edit, or fails with "message is not modified" when nothing would change. */
export function applyEdit(
  w: World,
  chat: ChatState,
  stored: { message: Message; history: Message[] },
  next: Message,
) {
  const keys = new Set([...Object.keys(stored.message), ...Object.keys(next)]);
  keys.delete("edit_date");
  const changed = [...keys].some((k) => !same(stored.message[k as keyof Message], next[k as keyof Message]));
  if (!changed) {
    throw badRequest(
      "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    );
  }
  countFlood(w, chat, false);
  stored.history.push(stored.message);
  stored.message = { ...next, edit_date: Math.floor(w.clock.now() / 1000) } as Message;
  w.chats.log(chat, `bot edited #${next.message_id}: ${describeMessage(stored.message)}`);
  w.notify();
  return stored.message;
}
