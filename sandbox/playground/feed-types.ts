import type { Message } from "grammy/types";

// Shared by the server (chat-feed.ts) and the page (web/api.ts): types only, no Node imports.

/** A message as the page shows it. */
export interface MessageView {
  chatId: number;
  id: number;
  fromBot: boolean;
  message: Message;
  /** a reply keyboard, its removal, or a force reply sent with the message */
  markup?: Record<string, unknown>;
  edited: boolean;
}

/** What the page is told of a change in its chats. */
export type FeedEvent =
  | { type: "new" | "edited"; message: MessageView }
  | { type: "deleted"; chatId: number; id: number }
  | { type: "answer"; chatId: number; queryId: string; text?: string; alert: boolean };
