import { createHash } from "node:crypto";
import type { InlineKeyboardButton, Message } from "grammy/types";
import { type BotMessage, botMessageView, type ChatState, type StoredMessage } from "./chats";
import { placeInlineResult, pressInlineButton } from "./inline";
import { menuButton, transcript, until } from "./user-read";
import { chatOf, type GroupChat, type UserState } from "./user-state";
import { launchWebApp, type WebAppLaunch, type WebAppTheme } from "./webapp";
import type { CallbackAnswer } from "./world";

export type ButtonMatcher =
  | string
  | RegExp
  | ((button: InlineKeyboardButton, message: BotMessage) => boolean);

function buttonMatches(matcher: ButtonMatcher, button: InlineKeyboardButton, message: BotMessage): boolean {
  if (typeof matcher === "string") return button.text === matcher;
  if (matcher instanceof RegExp) return matcher.test(button.text);
  return matcher(button, message);
}

/** The bot's messages not deleted, newest first; only message `wanted` when given. */
function newestBotMessages(chat: ChatState, wanted: number | undefined): StoredMessage[] {
  return chat.messages
    .filter((m) => m.fromBot && !m.deleted && (wanted === undefined || m.message.message_id === wanted))
    .reverse();
}

export function press(
  user: UserState,
  matcher: ButtonMatcher,
  options: { message?: Message | number; in?: GroupChat },
): string {
  const chat =
    options.in?.state ?? (options.message !== undefined ? chatOf(user, options.message) : user.chat);
  const wanted =
    options.message === undefined
      ? undefined
      : typeof options.message === "number"
        ? options.message
        : options.message.message_id;
  for (const stored of newestBotMessages(chat, wanted)) {
    const view = botMessageView(stored);
    const keyboard = stored.message.reply_markup?.inline_keyboard ?? [];
    const button = keyboard.flat().find((b) => buttonMatches(matcher, b, view));
    if (!button) continue;
    if (!("callback_data" in button) || button.callback_data === undefined) {
      throw new Error(`button "${button.text}" has no callback_data: ${JSON.stringify(button)}`);
    }
    return sendCallbackQuery(user, chat, stored.message, button.text, button.callback_data);
  }
  throw new Error(
    `no inline button matching ${String(matcher)}${wanted !== undefined ? ` on message #${wanted}` : ""}\n${user.world.chats.transcript(chat.chat.id)}`,
  );
}

function sendCallbackQuery(
  { world, info }: UserState,
  chat: ChatState,
  message: Message,
  text: string,
  data: string,
): string {
  const id = world.newQueryId();
  world.callbackQueries.set(id, {
    id,
    userId: info.id,
    chatId: chat.chat.id,
    messageId: message.message_id,
    data,
    at: Date.now(),
  });
  world.chats.log(chat, `${info.first_name} pressed "${text}" on #${message.message_id}`);
  world.updates.push({
    callback_query: {
      id,
      from: info,
      message,
      chat_instance: createHash("sha1").update(String(chat.chat.id)).digest("hex").slice(0, 16),
      data,
    },
  });
  return id;
}

export function callbackAnswer({ world }: UserState, queryId: string): CallbackAnswer | undefined {
  return world.callbackQueries.get(queryId)?.answer;
}

export function waitForAnswer(
  user: UserState,
  queryId: string,
  options: { timeoutMs?: number },
): Promise<CallbackAnswer> {
  return until(
    user,
    () => callbackAnswer(user, queryId),
    options.timeoutMs,
    `no answer to callback query ${queryId}`,
  );
}

export function chooseInlineResult(
  { world, info, chat: own }: UserState,
  queryId: string,
  resultId: string,
  options: { chat?: GroupChat },
): { message: Message; inlineMessageId: string | undefined } {
  const chat = options.chat?.state ?? own;
  return placeInlineResult(world, info, chat, { queryId, resultId, ownPrivateChat: chat === own });
}

export function pressInline(
  { world, info }: UserState,
  inlineMessageId: string,
  matcher: ButtonMatcher,
): string {
  return pressInlineButton(world, info, inlineMessageId, (button, message) =>
    buttonMatches(matcher, button, message),
  );
}

export function openWebApp(
  user: UserState,
  from: "menu" | ButtonMatcher,
  options: { message?: Message | number; theme?: WebAppTheme },
): WebAppLaunch {
  const theme = options.theme ? { theme: options.theme } : {};
  if (from === "menu") {
    const button = menuButton(user);
    if (button.type !== "web_app") throw new Error(`the menu button opens no Mini App: ${button.type}`);
    return launchWebApp(user.world, user.info, button.web_app.url, theme);
  }
  const wanted = typeof options.message === "number" ? options.message : options.message?.message_id;
  const found = newestBotMessages(user.chat, wanted)
    .flatMap((stored) =>
      (stored.message.reply_markup?.inline_keyboard ?? [])
        .flat()
        .filter((b) => buttonMatches(from, b, botMessageView(stored))),
    )
    .find((b) => "web_app" in b && b.web_app !== undefined);
  if (!found || !("web_app" in found) || !found.web_app)
    throw new Error(`no web_app button matching ${String(from)}\n${transcript(user)}`);
  return launchWebApp(user.world, user.info, found.web_app.url, theme);
}
