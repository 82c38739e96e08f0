import type { BotCommand, MenuButton, Message } from "grammy/types";
import { type BotMessage, botMessageView } from "./chats";
import { commandMenuFor, menuButtonFor } from "./methods/bot";
import type { GroupChat, UserState } from "./user-state";

const waitTimeoutMs = 5000;

/** Resolves with the first value `probe` finds, now or as the world changes; fails after `timeoutMs`. */
export function until<T>(
  user: UserState,
  probe: () => T | undefined,
  timeoutMs: number | undefined,
  what: string,
  chatId = user.info.id,
): Promise<T> {
  const ms = timeoutMs ?? waitTimeoutMs;
  return new Promise((resolve, reject) => {
    const found = probe();
    if (found !== undefined) return resolve(found);
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`${what} within ${ms} ms\n${user.world.chats.transcript(chatId)}`));
    }, ms);
    const unsubscribe = user.world.onChange(() => {
      const value = probe();
      if (value === undefined) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(value);
    });
  });
}

export function botMessages(
  user: UserState,
  options: { includeDeleted?: boolean; in?: GroupChat },
): BotMessage[] {
  const chat = options.in?.state ?? user.chat;
  return chat.messages.filter((m) => m.fromBot && (options.includeDeleted || !m.deleted)).map(botMessageView);
}

export function waitForBotMessage(
  user: UserState,
  predicate: (message: BotMessage) => unknown,
  options: { timeoutMs?: number; after?: Message | number; in?: GroupChat },
): Promise<BotMessage> {
  const after = typeof options.after === "number" ? options.after : (options.after?.message_id ?? 0);
  const chat = options.in?.state ?? user.chat;
  return until(
    user,
    () =>
      chat.messages
        .filter((m) => m.fromBot && !m.deleted && m.message.message_id > after)
        .map(botMessageView)
        .find((m) => predicate(m)),
    options.timeoutMs,
    "no bot message matched",
    chat.chat.id,
  );
}

export function menuButton({ world, info }: UserState): MenuButton {
  return menuButtonFor(world, info.id);
}

export function commandMenu({ world, info }: UserState, options: { in?: GroupChat }): BotCommand[] {
  return commandMenuFor(world, options.in?.state.chat.id ?? info.id, {
    userId: info.id,
    language: info.language_code,
  });
}

export function transcript({ world, info }: UserState): string {
  return world.chats.transcript(info.id);
}
