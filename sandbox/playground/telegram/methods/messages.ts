import type { Message } from "grammy/types";
import { z } from "zod";
import type { ChatState, StoredMessage } from "../chats";
import { badRequest } from "../errors";
import type { Params } from "../params";
import type { MethodHandler, World } from "../world";
import {
  applyEdit,
  captionOf,
  countFlood,
  editableMessage,
  formattedText,
  placeOf,
  postBotMessage,
  replyMarkupOf,
  sendContext,
} from "./common";

/** The bot deletes its own messages anywhere, and anyone's in a private chat. */
function botMayDelete(chat: ChatState, stored: StoredMessage): boolean {
  return stored.fromBot || chat.chat.type === "private";
}

function deleteByBot(w: World, chat: ChatState, stored: StoredMessage): void {
  stored.deleted = true;
  w.chats.log(chat, `bot deleted #${stored.message.message_id}`);
}

const chatActions = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);

export const messageMethods: Record<string, MethodHandler> = {
  sendMessage(w, p) {
    const { chat, extra, markup } = sendContext(w, p);
    const text = formattedText(w, p);
    countFlood(w, chat);
    return postBotMessage(w, chat, { ...text, ...extra }, markup);
  },

  editMessageText(w, p) {
    const { chat, stored, inline } = editableMessage(w, p);
    if (stored.message.text === undefined) throw badRequest("there is no text in the message to edit");
    const text = formattedText(w, p);
    const markup = replyMarkupOf(w, p, placeOf(chat, inline), true);
    const { text: _t, entities: _e, reply_markup: _r, ...rest } = stored.message;
    const edited = applyEdit(w, chat, stored, {
      ...rest,
      ...text,
      ...(markup ? { reply_markup: markup } : {}),
    } as Message);
    return inline ? true : edited;
  },

  editMessageReplyMarkup(w, p) {
    const { chat, stored, inline } = editableMessage(w, p);
    const markup = replyMarkupOf(w, p, placeOf(chat, inline), true);
    const { reply_markup: _r, ...rest } = stored.message;
    const edited = applyEdit(w, chat, stored, {
      ...rest,
      ...(markup ? { reply_markup: markup } : {}),
    } as Message);
    return inline ? true : edited;
  },

  deleteMessage(w, p) {
    const chat = w.chats.target(p.chatId());
    const id = p.int("message_id");
    const stored = id === undefined ? undefined : chat.byId.get(id);
    if (!stored || stored.deleted) throw badRequest("message to delete not found");
    if (!botMayDelete(chat, stored)) throw badRequest("message can't be deleted");
    deleteByBot(w, chat, stored);
    w.notify();
    return true;
  },

  deleteMessages(w, p) {
    const chat = w.chats.target(p.chatId());
    const ids = p.json("message_ids", z.array(z.number().int()));
    if (!ids || ids.length === 0 || ids.length > 100) throw badRequest("message_ids is empty");
    for (const id of ids) {
      const stored = chat.byId.get(id);
      if (stored && !stored.deleted && botMayDelete(chat, stored)) deleteByBot(w, chat, stored);
    }
    w.notify();
    return true;
  },

  sendChatAction(w, p) {
    const chat = w.chats.target(p.chatId());
    const action = p.string("action") ?? "";
    if (!chatActions.has(action)) throw badRequest("wrong parameter action in request");
    chat.lastAction = { action, at: w.clock.now() };
    w.chats.log(chat, `bot is ${action}…`);
    return true;
  },

  copyMessage(w, p) {
    const { chat, extra, markup } = sendContext(w, p);
    const source = sourceMessage(w, p);
    const content = copyableContent(source);
    if (p.has("caption")) Object.assign(content, captionOf(w, p));
    countFlood(w, chat);
    const message = postBotMessage(w, chat, { ...content, ...extra }, markup);
    return { message_id: message.message_id };
  },

  /** Copies 1–100 messages of one chat in their order; an album stays an album (one request). */
  copyMessages(w, p) {
    const { chat, extra } = sendContext(w, p);
    const from = w.chats.get(Number(p.chatId("from_chat_id")));
    const ids = p.json("message_ids", z.array(z.number().int()));
    if (!ids || ids.length === 0 || ids.length > 100) throw badRequest("message_ids is empty");
    if (ids.some((id, i) => i > 0 && id <= ids[i - 1]!))
      throw badRequest("message identifiers are not increasing");
    const sources = ids
      .map((id) => from?.byId.get(id))
      .filter((stored): stored is StoredMessage => stored !== undefined && !stored.deleted)
      .map((stored) => stored.message);
    if (sources.length === 0) throw badRequest("there are no messages to copy");
    countFlood(w, chat);
    const groups = new Map<string, string>();
    return sources.map((source) => {
      const content = copyableContent(source);
      if (source.media_group_id) {
        const group = groups.get(source.media_group_id) ?? `copy-${source.media_group_id}-${w.clock.now()}`;
        groups.set(source.media_group_id, group);
        content.media_group_id = group;
      }
      const message = postBotMessage(w, chat, { ...content, ...extra });
      return { message_id: message.message_id };
    });
  },

  forwardMessage(w, p) {
    const chat = w.chats.target(p.chatId());
    const source = sourceMessage(w, p);
    const content = copyableContent(source);
    const origin = source.from
      ? { type: "user", sender_user: source.from, date: source.date }
      : { type: "hidden_user", sender_user_name: "", date: source.date };
    const thread = p.int("message_thread_id");
    countFlood(w, chat);
    return postBotMessage(w, chat, {
      ...content,
      forward_origin: origin,
      ...(thread !== undefined ? { message_thread_id: thread } : {}),
    });
  },

  getChatMember(w, p) {
    const chat = w.chats.target(p.chatId());
    const userId = p.int("user_id");
    // the bot is a plain member: an administrator would see every group message, not privacy mode's share
    if (userId === w.botUser.id) return { status: "member", user: w.botUser };
    const member = userId === undefined ? undefined : chat.members.get(userId);
    if (!member) {
      // someone Telegram knows who is not in the group: "left"; an id of nobody: refused
      const known =
        userId === undefined ? undefined : (chat.former?.get(userId) ?? w.chats.get(userId)?.user);
      if (!known || chat.chat.type === "private") throw badRequest("PARTICIPANT_ID_INVALID");
      return { status: "left", user: known };
    }
    const role = chat.roles?.get(member.id);
    if (role?.status === "creator") return { status: "creator", user: member, is_anonymous: role.anonymous };
    if (role?.status === "administrator") {
      return {
        status: "administrator",
        user: member,
        can_be_edited: false,
        is_anonymous: role.anonymous,
        can_manage_chat: true,
        can_delete_messages: true,
        can_manage_video_chats: true,
        can_restrict_members: true,
        can_promote_members: false,
        can_change_info: true,
        can_invite_users: true,
        can_post_stories: false,
        can_edit_stories: false,
        can_delete_stories: false,
        can_pin_messages: true,
        ...(chat.chat.type === "supergroup" && chat.chat.is_forum ? { can_manage_topics: true } : {}),
      };
    }
    return { status: "member", user: member };
  },

  getChat(w, p) {
    const chat = w.chats.target(p.chatId());
    return { ...chat.chat, accent_color_id: 0, max_reaction_count: 11, accepted_gift_types: {} };
  },
};

function sourceMessage(w: World, p: Params): Message {
  const from = w.chats.get(Number(p.chatId("from_chat_id")));
  const id = p.int("message_id");
  const stored = from && id !== undefined ? from.byId.get(id) : undefined;
  if (!stored || stored.deleted) throw badRequest("message to copy not found");
  return stored.message;
}

const copiedFields = [
  "text",
  "entities",
  "photo",
  "video",
  "audio",
  "document",
  "animation",
  "voice",
  "video_note",
  "caption",
  "caption_entities",
] as const;

function copyableContent(message: Message): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of copiedFields) if (message[field] !== undefined) content[field] = message[field];
  if (Object.keys(content).length === 0) throw badRequest("message can't be copied");
  return content;
}
