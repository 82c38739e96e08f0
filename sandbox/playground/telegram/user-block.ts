import type { ChatMember } from "grammy/types";
import type { UserState } from "./user-state";

/**
 * Blocks or unblocks the bot in the user's private chat. `unnoticed`: the
 * bot is not told (no my_chat_member update).
 */
export function setBlocked(user: UserState, blocked: boolean, unnoticed = false): void {
  const { world, info, chat } = user;
  if (chat.blocked === blocked) return;
  chat.blocked = blocked;
  world.chats.log(chat, `${info.first_name} ${blocked ? "blocked" : "unblocked"} the bot`);
  if (unnoticed) return;
  const date = Math.floor(world.clock.now() / 1000);
  const member: ChatMember = { status: "member", user: world.botUser };
  const kicked: ChatMember = { status: "kicked", user: world.botUser, until_date: 0 };
  world.updates.push({
    my_chat_member: {
      chat: chat.chat,
      from: info,
      date,
      old_chat_member: blocked ? member : kicked,
      new_chat_member: blocked ? kicked : member,
    },
  });
}
