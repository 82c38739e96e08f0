import type { Chat, InlineKeyboardMarkup, Message, Update, User } from "grammy/types";
import type { Clock } from "../../../src/platform/lib/clock";
import { badRequest, forbidden } from "./errors";

export interface StoredMessage {
  message: Message;
  fromBot: boolean;
  /** earlier states of the message, oldest first */
  history: Message[];
  deleted: boolean;
  /** a reply keyboard, keyboard removal or force reply sent with it (not part of Telegram's Message) */
  sentMarkup?: Record<string, unknown>;
}

export interface ChatState {
  chat: Chat;
  /** the user of a private chat */
  user?: User;
  members: Map<number, User>;
  /** a group's creator and administrators (by user id); every other member is a plain member */
  roles?: Map<number, { status: "creator" | "administrator"; anonymous: boolean }>;
  /** people who were members of a group and left it (getChatMember answers "left") */
  former?: Map<number, User>;
  /** a private chat exists for the bot only once the user wrote to it */
  started: boolean;
  blocked: boolean;
  nextMessageId: number;
  messages: StoredMessage[];
  byId: Map<number, StoredMessage>;
  topics: Set<number>;
  log: string[];
  /** the reply keyboard the user currently sees */
  keyboard?: Record<string, unknown>;
  lastAction?: { action: string; at: number };
}

/** A bot message as a test sees it: its current state, with what it was before each edit. */
export type BotMessage = Message & {
  /** earlier states, oldest first; empty when never edited */
  history: Message[];
  deleted: boolean;
  /** a reply keyboard (or its removal, or a force reply) sent with the message */
  keyboard?: Record<string, unknown>;
};

export function botMessageView(stored: StoredMessage): BotMessage {
  return {
    ...stored.message,
    history: [...stored.history],
    deleted: stored.deleted,
    ...(stored.sentMarkup ? { keyboard: stored.sentMarkup } : {}),
  } as BotMessage;
}

export const isGroupChat = (chat: Chat) => chat.type === "group" || chat.type === "supergroup";

export class ChatStore {
  private readonly chats = new Map<number, ChatState>();
  private readonly byUsername = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  create(chat: Chat, members: User[], user?: User): ChatState {
    const state: ChatState = {
      chat,
      members: new Map(members.map((m) => [m.id, m])),
      started: false,
      blocked: false,
      nextMessageId: 1,
      messages: [],
      byId: new Map(),
      topics: new Set(),
      log: [],
      ...(user ? { user } : {}),
    };
    this.chats.set(chat.id, state);
    if (chat.type !== "private" && "username" in chat && chat.username)
      this.byUsername.set(chat.username.toLowerCase(), chat.id);
    return state;
  }

  get(id: number): ChatState | undefined {
    return this.chats.get(id);
  }

  all(): ChatState[] {
    return [...this.chats.values()];
  }

  /** A chat by id or @username, whatever the bot may do in it. */
  find(chatId: number | string): ChatState | undefined {
    const id =
      typeof chatId === "string" ? this.byUsername.get(chatId.replace(/^@/, "").toLowerCase()) : chatId;
    return id === undefined ? undefined : this.chats.get(id);
  }

  /** The chat a bot call addresses: errors as Telegram gives them for an unknown, blocked or unstarted chat. */
  target(chatId: number | string): ChatState {
    const state = this.find(chatId);
    if (!state) throw badRequest("chat not found");
    if (state.chat.type === "private") {
      if (state.blocked) throw forbidden("bot was blocked by the user");
      if (!state.started) throw forbidden("bot can't initiate conversation with a user");
    }
    return state;
  }

  add(
    state: ChatState,
    content: Record<string, unknown>,
    from: User,
    fromBot: boolean,
  ): Message & Update.NonChannel {
    const message = {
      message_id: state.nextMessageId++,
      from,
      chat: state.chat,
      date: Math.floor(this.clock.now() / 1000),
      ...content,
    } as Message & Update.NonChannel;
    const stored: StoredMessage = { message, fromBot, history: [], deleted: false };
    state.messages.push(stored);
    state.byId.set(message.message_id, stored);
    return message;
  }

  stored(state: ChatState, messageId: number): StoredMessage | undefined {
    return state.byId.get(messageId);
  }

  log(state: ChatState, line: string): void {
    const time = new Date(this.clock.now()).toISOString().slice(11, 23);
    state.log.push(`${time}  ${line}`);
  }

  transcript(chatId: number): string {
    const state = this.chats.get(chatId);
    if (!state) return `(no chat ${chatId})`;
    const title = "title" in state.chat ? state.chat.title : (state.user?.first_name ?? String(chatId));
    return [`— chat ${chatId} (${state.chat.type}: ${title}) —`, ...state.log].join("\n");
  }
}

function quote(s: string, max = 300): string {
  const flat = s.replace(/\n/g, "⏎");
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max)}…` : flat);
}

export function describeKeyboard(
  markup: Message["reply_markup"] | Record<string, unknown> | undefined,
): string {
  if (!markup) return "";
  if ("inline_keyboard" in markup) {
    const rows = (markup as InlineKeyboardMarkup).inline_keyboard.map((row) =>
      row.map((b) => ("callback_data" in b ? `${b.text} ⇒ ${b.callback_data}` : b.text)).join(" | "),
    );
    return ` [${rows.join(" / ")}]`;
  }
  if ("keyboard" in markup && Array.isArray(markup.keyboard)) {
    const rows = (markup.keyboard as Array<Array<string | { text: string }>>).map((row) =>
      row.map((b) => (typeof b === "string" ? b : b.text)).join(" | "),
    );
    return ` {keyboard: ${rows.join(" / ")}}`;
  }
  if ("remove_keyboard" in markup) return " {remove keyboard}";
  if ("force_reply" in markup) return " {force reply}";
  return "";
}

/** One line describing a message, for transcripts. */
export function describeMessage(m: Message): string {
  const parts: string[] = [];
  if (m.photo) {
    const largest = m.photo.at(-1);
    parts.push(`[photo ${largest?.width}x${largest?.height}]`);
  }
  if (m.video) parts.push(`[video ${m.video.duration}s]`);
  if (m.animation) parts.push(`[animation]`);
  else if (m.document) parts.push(`[document ${m.document.file_name ?? ""} ${m.document.file_size ?? 0} B]`);
  if (m.audio) parts.push(`[audio ${m.audio.title ?? m.audio.file_name ?? ""} ${m.audio.duration}s]`);
  if (m.voice) parts.push(`[voice ${m.voice.duration}s]`);
  if (m.invoice) parts.push(`[invoice ${m.invoice.title}: ${m.invoice.total_amount} ${m.invoice.currency}]`);
  if (m.successful_payment) {
    parts.push(`[paid ${m.successful_payment.total_amount} ${m.successful_payment.currency}]`);
  }
  if (m.refunded_payment)
    parts.push(`[refunded ${m.refunded_payment.total_amount} ${m.refunded_payment.currency}]`);
  if (m.text !== undefined) parts.push(quote(m.text));
  if (m.caption !== undefined) parts.push(`caption ${quote(m.caption)}`);
  let line = parts.join(" ");
  if (m.media_group_id) line += ` (album ${m.media_group_id})`;
  if (m.reply_to_message) line += ` (reply to #${m.reply_to_message.message_id})`;
  if (m.message_thread_id !== undefined && m.is_topic_message) line += ` (topic ${m.message_thread_id})`;
  return line + describeKeyboard(m.reply_markup);
}
