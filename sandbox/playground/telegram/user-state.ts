import type { Chat, Message, User } from "grammy/types";
import type { ChatState } from "./chats";
import type { World } from "./world";

export interface UserOptions {
  language?: string;
  firstName?: string;
  lastName?: string;
  username?: string;
  premium?: boolean;
  /** the user started the bot before the test (an admin, say): the bot may write first */
  started?: boolean;
}

/** What each of a test user's activities works on: the world, the user, their private chat with the bot. */
export interface UserState {
  readonly world: World;
  readonly info: User;
  readonly chat: ChatState;
}

/** A group a user posts in (a TestGroup): where the message goes. */
export interface GroupChat {
  readonly state: ChatState;
}

/** A new user of the world, with a private chat with the bot. */
export function createUserState(world: World, options: UserOptions): UserState {
  const id = world.newUserId();
  const info: User = {
    id,
    is_bot: false,
    first_name: options.firstName ?? `User${id % 10_000}`,
    ...(options.lastName ? { last_name: options.lastName } : {}),
    ...(options.username ? { username: options.username } : {}),
    ...(options.language ? { language_code: options.language } : {}),
    ...(options.premium ? { is_premium: true as const } : {}),
  };
  const privateChat: Chat.PrivateChat = {
    id,
    type: "private",
    first_name: info.first_name,
    ...(options.lastName ? { last_name: options.lastName } : {}),
    ...(options.username ? { username: options.username } : {}),
  };
  const chat = world.chats.create(privateChat, [info], info);
  chat.started = options.started === true;
  return { world, info, chat };
}

/** The chat a message is in; a bare message id means one in the user's private chat. */
export function chatOf(user: UserState, message: Message | number): ChatState {
  if (typeof message === "number") return user.chat;
  const state = user.world.chats.get(message.chat.id);
  if (!state) throw new Error(`no chat ${message.chat.id}`);
  return state;
}
