import { createHash, randomBytes } from "node:crypto";
import type { InlineKeyboardButton, Message, MessageEntity, User } from "grammy/types";
import { z } from "zod";
import { type BotMessage, botMessageView, type ChatState, describeMessage, isGroupChat } from "./chats";
import { badRequest } from "./errors";
import { parseFormatted } from "./formatting";
import { type InlineResultsButton, resultsButton } from "./schemas";
import type { World } from "./world";

/** What an inline result must hold to be placed in a chat (the parts this stand-in plays). */
const placeableResult = z.looseObject({
  type: z.string(),
  id: z.string(),
  title: z.string().optional(),
  caption: z.string().optional(),
  parse_mode: z.string().optional(),
  photo_file_id: z.string().optional(),
  video_file_id: z.string().optional(),
  audio_file_id: z.string().optional(),
  document_file_id: z.string().optional(),
  voice_file_id: z.string().optional(),
  input_message_content: z
    .looseObject({
      message_text: z.string().min(1),
      parse_mode: z.string().optional(),
      entities: z
        .array(z.looseObject({ type: z.string(), offset: z.number(), length: z.number() }))
        .optional(),
    })
    .optional(),
  reply_markup: z
    .looseObject({ inline_keyboard: z.array(z.array(z.looseObject({ text: z.string() }))) })
    .optional(),
});
type PlaceableResult = z.infer<typeof placeableResult>;

const cachedFileField = {
  photo: "photo_file_id",
  video: "video_file_id",
  audio: "audio_file_id",
  document: "document_file_id",
  voice: "voice_file_id",
} as const;

const capitalized = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

/**
 * Telegram's checks of one answered result: an article needs its message
 * text, a cached file must be a file Telegram knows, of the result's type.
 */
export function checkInlineResult(w: World, raw: Record<string, unknown>): void {
  const parsed = placeableResult.safeParse(raw);
  if (!parsed.success) throw badRequest("RESULT_INVALID");
  const result = parsed.data;
  // an inline message is no private chat with the bot: no Web App buttons
  if (result.reply_markup?.inline_keyboard.flat().some((b) => b.web_app !== undefined))
    throw badRequest("BUTTON_TYPE_INVALID");
  if (result.type === "article") {
    if (!result.title) throw badRequest("RESULT_TITLE_EMPTY");
    if (!result.input_message_content) throw badRequest("MESSAGE_EMPTY");
    return;
  }
  const field = cachedFileField[result.type as keyof typeof cachedFileField];
  const fileId = field ? result[field] : undefined;
  if (field && fileId !== undefined) {
    const file = w.files.get(fileId);
    if (!file) throw badRequest("wrong file identifier/HTTP URL specified");
    // a cached result names its file's type exactly: one wrong result refuses the whole answer
    if (file.kind !== result.type)
      throw badRequest(`can't use file of type ${capitalized(file.kind)} as ${capitalized(result.type)}`);
  }
}

/**
 * Telegram's checks of answerInlineQuery's `button` (shown above the
 * results): a label, and either a deep-link parameter for /start (1-64
 * characters of A-Z, a-z, 0-9, _ and -) or a Web App.
 */
export function checkInlineResultsButton(raw: unknown): InlineResultsButton {
  const parsed = resultsButton.safeParse(raw);
  if (!parsed.success) throw badRequest("can't parse inline query results button");
  const button = parsed.data;
  if (button.text.trim() === "") throw badRequest("BUTTON_TEXT_EMPTY");
  if ((button.start_parameter === undefined) === (button.web_app === undefined))
    throw badRequest("BUTTON_TYPE_INVALID");
  if (button.start_parameter !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(button.start_parameter))
    throw badRequest("START_PARAM_INVALID");
  return button;
}

function formatted(text: string, parseMode: string | undefined, entities: unknown[] | undefined) {
  if (entities) return { text, entities: entities as MessageEntity[] };
  return parseFormatted(text, parseMode);
}

/** The content of the message a chosen result becomes. */
function placedContent(w: World, result: PlaceableResult): Record<string, unknown> {
  const content = result.input_message_content;
  if (content) {
    const text = formatted(content.message_text, content.parse_mode, content.entities);
    return { text: text.text, ...(text.entities.length > 0 ? { entities: text.entities } : {}) };
  }
  const field = cachedFileField[result.type as keyof typeof cachedFileField];
  const file = field && result[field] ? w.files.get(result[field]) : undefined;
  if (!file) throw new Error(`the stand-in cannot place an inline result of type ${result.type}`);
  const base = { file_id: file.fileId, file_unique_id: file.uniqueId, file_size: file.size };
  const caption = result.caption ? formatted(result.caption, result.parse_mode, undefined) : undefined;
  const captioned = caption
    ? {
        caption: caption.text,
        ...(caption.entities.length > 0 ? { caption_entities: caption.entities } : {}),
      }
    : {};
  switch (result.type) {
    case "photo":
      return { photo: w.files.photoSetOf(file.fileId) ?? [], ...captioned };
    case "video":
      return {
        video: { ...base, width: file.width ?? 0, height: file.height ?? 0, duration: file.duration ?? 0 },
        ...captioned,
      };
    case "audio":
      return { audio: { ...base, duration: file.duration ?? 0 }, ...captioned };
    default:
      return { document: base, ...captioned };
  }
}

export const chatInstanceOf = (chatId: number) =>
  createHash("sha1").update(String(chatId)).digest("hex").slice(0, 16);

/**
 * A user taps a result of the bot's answer: the result becomes a message from
 * the user `via_bot` in `chat`. Only a result with a keyboard gets an
 * inline_message_id (the bot can edit nothing else), and the bot hears of the
 * choice (`chosen_inline_result`) only when inline feedback is on. The bot also
 * gets the message itself where it sees the chat: privacy mode lets messages
 * sent via the bot through; here the bot is in every group and the user's own
 * private chat with it.
 */
export function placeInlineResult(
  w: World,
  user: User,
  chat: ChatState,
  options: { queryId: string; resultId: string; ownPrivateChat: boolean },
): { message: Message; inlineMessageId: string | undefined } {
  const query = w.inlineQueries.get(options.queryId);
  if (!query?.answer) throw new Error(`inline query ${options.queryId} has no answer to choose from`);
  if (query.userId !== user.id) throw new Error("only the user who typed the query can choose its results");
  const raw = query.answer.results.find((r) => r.id === options.resultId);
  if (!raw) throw new Error(`no result ${options.resultId} in the answer to ${options.queryId}`);
  const result = placeableResult.parse(raw);
  if (chat.chat.type !== "private" && !chat.members.has(user.id))
    throw new Error(`${user.first_name} is not a member of ${chat.chat.id}`);
  const content = placedContent(w, result);
  const message = w.chats.add(
    chat,
    {
      ...content,
      via_bot: w.botUser,
      ...(result.reply_markup ? { reply_markup: result.reply_markup } : {}),
    },
    user,
    false,
  );
  let inlineMessageId: string | undefined;
  if (result.reply_markup) {
    inlineMessageId = randomBytes(18).toString("base64url");
    w.inlineMessages.set(inlineMessageId, {
      inlineMessageId,
      chatId: chat.chat.id,
      messageId: message.message_id,
      userId: user.id,
      resultId: result.id,
    });
  }
  const seen = isGroupChat(chat.chat) || options.ownPrivateChat;
  w.chats.log(
    chat,
    `${user.first_name} #${message.message_id} via @${w.botUser.username}: ${describeMessage(message)}${inlineMessageId ? ` (inline message ${inlineMessageId})` : ""}`,
  );
  if (seen) w.updates.push({ message });
  if (w.inlineFeedback) {
    w.updates.push({
      chosen_inline_result: {
        result_id: result.id,
        from: user,
        query: query.query,
        ...(inlineMessageId ? { inline_message_id: inlineMessageId } : {}),
      },
    });
  }
  w.notify();
  return { message, inlineMessageId };
}

/** A press on a button of an inline message, by anyone who sees it. */
export function pressInlineButton(
  w: World,
  user: User,
  inlineMessageId: string,
  matches: (button: InlineKeyboardButton, message: BotMessage) => boolean,
): string {
  const placed = w.inlineMessages.get(inlineMessageId);
  const chat = placed ? w.chats.get(placed.chatId) : undefined;
  const stored = placed && chat ? chat.byId.get(placed.messageId) : undefined;
  if (!placed || !chat || !stored || stored.deleted) throw new Error(`no inline message ${inlineMessageId}`);
  const sees = chat.chat.type === "private" ? chat.chat.id === user.id : chat.members.has(user.id);
  if (!sees) throw new Error(`${user.first_name} cannot see inline message ${inlineMessageId}`);
  const view = botMessageView(stored);
  const button = (stored.message.reply_markup?.inline_keyboard ?? []).flat().find((b) => matches(b, view));
  if (!button)
    throw new Error(
      `no matching button on inline message ${inlineMessageId}\n${describeMessage(stored.message)}`,
    );
  if (!("callback_data" in button) || button.callback_data === undefined)
    throw new Error(`button "${button.text}" has no callback_data: ${JSON.stringify(button)}`);
  const id = w.newQueryId();
  w.callbackQueries.set(id, {
    id,
    userId: user.id,
    chatId: chat.chat.id,
    inlineMessageId,
    data: button.callback_data,
    at: Date.now(),
  });
  w.chats.log(chat, `${user.first_name} pressed "${button.text}" on inline message #${placed.messageId}`);
  w.updates.push({
    callback_query: {
      id,
      from: user,
      inline_message_id: inlineMessageId,
      chat_instance: chatInstanceOf(chat.chat.id),
      data: button.callback_data,
    },
  });
  return id;
}

/** An inline message as a test sees it: its current content, keyboard and edit history. */
export function inlineMessageView(w: World, inlineMessageId: string): BotMessage | undefined {
  const placed = w.inlineMessages.get(inlineMessageId);
  const stored = placed ? w.chats.get(placed.chatId)?.byId.get(placed.messageId) : undefined;
  return stored ? botMessageView(stored) : undefined;
}
