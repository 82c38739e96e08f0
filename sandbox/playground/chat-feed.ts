import type { FeedEvent, MessageView } from "./feed-types";
import type { StoredMessage, TelegramStandIn } from "./telegram";

export function viewOf(chatId: number, stored: StoredMessage): MessageView {
  return {
    chatId,
    id: stored.message.message_id,
    fromBot: stored.fromBot,
    message: stored.message,
    ...(stored.sentMarkup ? { markup: stored.sentMarkup } : {}),
    edited: stored.history.length > 0,
  };
}

/**
 * What changed in the playground's chats, as events: the stand-in only says
 * "something changed", so the feed compares each message with what it saw last.
 */
export function createChatFeed(tg: TelegramStandIn, chatIds: () => number[]) {
  const seen = new Map<string, { versions: number; deleted: boolean }>();
  const listeners = new Set<(event: FeedEvent) => void>();
  const publish = (event: FeedEvent) => {
    for (const listener of [...listeners]) listener(event);
  };

  const refresh = () => {
    for (const chatId of chatIds()) {
      const chat = tg.chat(chatId);
      if (!chat) continue;
      for (const stored of chat.messages) {
        const key = `${chatId}:${stored.message.message_id}`;
        const before = seen.get(key);
        const now = { versions: stored.history.length, deleted: stored.deleted };
        if (before && before.versions === now.versions && before.deleted === now.deleted) continue;
        seen.set(key, now);
        if (now.deleted) {
          if (before && !before.deleted) publish({ type: "deleted", chatId, id: stored.message.message_id });
        } else {
          publish({ type: before ? "edited" : "new", message: viewOf(chatId, stored) });
        }
      }
    }
  };
  refresh();
  const unsubscribe = tg.onChange(refresh);

  return {
    refresh,
    publish,
    subscribe(listener: (event: FeedEvent) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: unsubscribe,
  };
}
export type ChatFeed = ReturnType<typeof createChatFeed>;
