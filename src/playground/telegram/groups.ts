import type { Chat } from "grammy/types";
import { type BotMessage, botMessageView, type ChatState } from "./chats";
import type { TestUser } from "./users";
import type { World } from "./world";

export interface GroupOptions {
  title?: string;
  forum?: boolean;
  /** "supergroup" unless told; a forum is always a supergroup */
  type?: "group" | "supergroup";
  members: TestUser[];
}

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
  const state = world.chats.create(
    chat,
    options.members.map((m) => m.info),
  );
  state.started = true;
  return new TestGroup(world, state);
}
