import type { Chat, Message } from "grammy/types";
import { type BotMessage, botMessageView, type ChatState } from "./chats";
import type { TestUser } from "./users";
import type { World } from "./world";

export interface GroupOptions {
  title?: string;
  forum?: boolean;
  /** "supergroup" unless told; a forum is always a supergroup */
  type?: "group" | "supergroup";
  members: TestUser[];
  /** the group's creator (a member too) */
  creator?: TestUser;
  /** administrators (members too); `anonymous` ones may write as the group itself */
  admins?: TestUser[];
}

/** Telegram's sender of the messages anonymous admins write as the group. */
export const groupAnonymousBot = {
  id: 1087968824,
  is_bot: true,
  first_name: "Group",
  username: "GroupAnonymousBot",
} as const;

export class TestGroup {
  readonly id: number;
  constructor(
    private readonly world: World,
    readonly state: ChatState,
  ) {
    this.id = state.chat.id;
  }

  get chatId(): number {
    return this.id;
  }

  get chat(): Chat {
    return this.state.chat;
  }

  /** Opens a forum topic as `by` and returns its message_thread_id. */
  createTopic(by: TestUser, name: string): number {
    if (!(this.state.chat.type === "supergroup" && this.state.chat.is_forum)) throw new Error("not a forum");
    const message = this.world.chats.add(
      this.state,
      { forum_topic_created: { name, icon_color: 7322096 } },
      by.info,
      false,
    );
    this.state.topics.add(message.message_id);
    this.world.chats.log(this.state, `${by.info.first_name} opened topic ${message.message_id} "${name}"`);
    this.world.updates.push({
      message: { ...message, message_thread_id: message.message_id, is_topic_message: true },
    });
    return message.message_id;
  }

  /** Makes a member an administrator (or the creator); Telegram's getChatMember says so at once. */
  promote(user: TestUser, options: { status?: "creator" | "administrator"; anonymous?: boolean } = {}): void {
    if (!this.state.members.has(user.id)) throw new Error(`${user.info.first_name} is not a member`);
    this.state.roles ??= new Map();
    this.state.roles.set(user.id, {
      status: options.status ?? "administrator",
      anonymous: options.anonymous ?? false,
    });
    this.world.chats.log(
      this.state,
      `${user.info.first_name} is now ${options.status ?? "an administrator"}`,
    );
  }

  /** An administrator becomes a plain member again. */
  demote(user: TestUser): void {
    this.state.roles?.delete(user.id);
    this.world.chats.log(this.state, `${user.info.first_name} is a plain member again`);
  }

  /** The user leaves the group: getChatMember answers "left", and they can no longer write there. */
  leave(user: TestUser): void {
    this.state.members.delete(user.id);
    this.state.roles?.delete(user.id);
    this.state.former ??= new Map();
    this.state.former.set(user.id, user.info);
    this.world.chats.log(this.state, `${user.info.first_name} left the group`);
  }

  /**
   * An anonymous administrator writes as the group: the message comes from
   * GroupAnonymousBot with the group as `sender_chat`. Under privacy mode the
   * bot sees it only when it is a command.
   */
  sendAsGroup(admin: TestUser, text: string): Message {
    const role = this.state.roles?.get(admin.id);
    if (!role?.anonymous) throw new Error(`${admin.info.first_name} is not an anonymous admin of ${this.id}`);
    const command = /^\/[a-zA-Z0-9_]{1,32}(?:@[a-zA-Z0-9_]{3,32})?/.exec(text);
    const message = this.world.chats.add(
      this.state,
      {
        text,
        sender_chat: this.state.chat,
        ...(command ? { entities: [{ type: "bot_command", offset: 0, length: command[0].length }] } : {}),
      },
      groupAnonymousBot,
      false,
    );
    const seen = command !== null || !this.world.rules.groupPrivacy;
    this.world.chats.log(
      this.state,
      `${this.chat.title ?? "the group"} (anonymous admin) #${message.message_id}: ${text}`,
    );
    if (seen) this.world.updates.push({ message });
    return message;
  }

  messages(): BotMessage[] {
    return this.state.messages.filter((m) => m.fromBot && !m.deleted).map(botMessageView);
  }

  transcript(): string {
    return this.world.chats.transcript(this.id);
  }
}

export function createGroup(world: World, options: GroupOptions): TestGroup {
  const supergroup = options.forum === true || options.type !== "group";
  const id = world.newGroupId(supergroup);
  const title = options.title ?? `Group ${Math.abs(id) % 10_000}`;
  const chat: Chat = supergroup
    ? { id, type: "supergroup", title, ...(options.forum ? { is_forum: true as const } : {}) }
    : { id, type: "group", title };
  const people = [
    ...options.members,
    ...(options.creator ? [options.creator] : []),
    ...(options.admins ?? []),
  ];
  const state = world.chats.create(chat, [...new Map(people.map((m) => [m.id, m.info])).values()]);
  state.started = true;
  const group = new TestGroup(world, state);
  if (options.creator) group.promote(options.creator, { status: "creator" });
  for (const admin of options.admins ?? []) group.promote(admin);
  return group;
}
