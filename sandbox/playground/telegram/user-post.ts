import type { Message, MessageEntity } from "grammy/types";
import { type ChatState, describeMessage } from "./chats";
import { setBlocked } from "./user-block";
import type { UserState } from "./user-state";

export interface SendOptions {
  replyTo?: Message | number;
  threadId?: number;
  /** formatting the user applied in their client (bold, links, …), besides the entities Telegram detects */
  entities?: MessageEntity[];
}

/** Entities Telegram's clients add to what a user types: commands, mentions, links. */
export function userEntities(text: string): MessageEntity[] {
  const entities: MessageEntity[] = [];
  const re = /(^|\s)(\/[a-zA-Z0-9_]{1,32}(?:@[a-zA-Z0-9_]{3,32})?|@[a-zA-Z0-9_]{5,32}|https?:\/\/\S+)/g;
  for (const m of text.matchAll(re)) {
    const token = m[2]!;
    const offset = m.index + m[1]!.length;
    const type = token.startsWith("/") ? "bot_command" : token.startsWith("@") ? "mention" : "url";
    entities.push({ type, offset, length: token.length });
  }
  return entities;
}

/** Stores a message from this user and delivers it as an update when the bot would see it. */
export function post(
  user: UserState,
  chat: ChatState,
  content: Record<string, unknown>,
  options: SendOptions,
): Message {
  const { world, info } = user;
  if (chat.chat.type !== "private" && !chat.members.has(info.id)) {
    throw new Error(`${info.first_name} is not a member of ${chat.chat.id}`);
  }
  const extra = replyAndThread(chat, options);
  if (chat.chat.type === "private") {
    chat.started = true;
    if (chat.blocked) setBlocked(user, false);
  }
  const message = world.chats.add(chat, { ...content, ...extra }, info, false);
  const seen = botSees(user, chat, message);
  world.chats.log(
    chat,
    `${info.first_name} #${message.message_id}: ${describeMessage(message)}${seen ? "" : " (not seen by the bot: privacy mode)"}`,
  );
  if (seen) world.updates.push({ message });
  return message;
}

/** The fields a reply (`replyTo`) and a forum topic (`threadId`, or the replied-to message's) add. */
function replyAndThread(chat: ChatState, options: SendOptions): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  if (options.replyTo !== undefined) {
    const id = typeof options.replyTo === "number" ? options.replyTo : options.replyTo.message_id;
    const target = chat.byId.get(id);
    if (!target) throw new Error(`no message ${id} in chat ${chat.chat.id} to reply to`);
    const { reply_to_message: _nested, ...quoted } = target.message;
    extra.reply_to_message = quoted;
    if (options.threadId === undefined && target.message.is_topic_message) {
      extra.message_thread_id = target.message.message_thread_id;
      extra.is_topic_message = true;
    }
  }
  if (options.threadId !== undefined) {
    const forum = chat.chat.type === "supergroup" && chat.chat.is_forum;
    if (!forum) throw new Error(`chat ${chat.chat.id} is not a forum`);
    chat.topics.add(options.threadId);
    extra.message_thread_id = options.threadId;
    extra.is_topic_message = true;
  }
  return extra;
}

/** Privacy mode: in groups the bot sees only commands (to it or to nobody) and replies to itself. */
function botSees({ world }: UserState, chat: ChatState, message: Message): boolean {
  if (chat.chat.type === "private" || !world.rules.groupPrivacy) return true;
  if (message.reply_to_message?.from?.id === world.botUser.id) return true;
  const text = message.text ?? message.caption ?? "";
  const command = /^\/[a-zA-Z0-9_]+(?:@([a-zA-Z0-9_]+))?/.exec(text);
  if (!command) return false;
  return command[1] === undefined || command[1].toLowerCase() === world.botUser.username?.toLowerCase();
}
