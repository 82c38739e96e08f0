import type { Context } from "grammy";

/**
 * The key of per-chat-and-user state (the conversations use it), so one
 * user's state in a group is theirs alone.
 * undefined for updates without both a chat and a sender (inline queries, …).
 */
export function chatUserKey(ctx: Pick<Context, "chatId" | "from">): string | undefined {
  const chatId = ctx.chatId;
  const userId = ctx.from?.id;
  if (chatId === undefined || userId === undefined) return undefined;
  return `${chatId}:${userId}`;
}

/**
 * Constraints for @grammyjs/runner's `sequentialize`: updates sharing a chat or
 * a user run one after another (so anything keyed by chat, by user, or by
 * `chatUserKey` sees them in order); unrelated updates run concurrently.
 */
export function sequenceConstraints(ctx: Pick<Context, "chatId" | "from">): string[] {
  const keys: string[] = [];
  if (ctx.chatId !== undefined) keys.push(`chat:${ctx.chatId}`);
  if (ctx.from) keys.push(`user:${ctx.from.id}`);
  return keys;
}
