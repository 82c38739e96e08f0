import { Api, Context } from "grammy";
import type { Update, UserFromGetMe } from "grammy/types";

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
 * The keys an update is ordered by: updates sharing a chat or a user are
 * handled one after another (so anything keyed by chat, by user, or by
 * `chatUserKey` sees them in order); unrelated updates run concurrently.
 * A private chat's id is its user's id, and its key is that user's: an update
 * there (most of them) holds one key, not two, in the journal's claim.
 */
export function sequenceConstraints(ctx: Pick<Context, "chat" | "chatId" | "from">): string[] {
  const keys: string[] = [];
  if (ctx.chatId !== undefined)
    keys.push(ctx.chat?.type === "private" ? `user:${ctx.chatId}` : `chat:${ctx.chatId}`);
  if (ctx.from && keys[0] !== `user:${ctx.from.id}`) keys.push(`user:${ctx.from.id}`);
  return keys;
}

// grammY's context knows where every update type keeps its chat and sender;
// reading them needs no bot, so one placeholder Api and identity serve all
const detachedApi = new Api("0:detached");
const detachedMe: UserFromGetMe = {
  id: 0,
  is_bot: true,
  first_name: "detached",
  username: "detached",
  can_join_groups: false,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
  can_manage_bots: false,
  supports_join_request_queries: false,
};

/** A context over a raw update, for reading where it keeps its chat and sender before any bot handles it. */
export function detachedContext(update: Update): Context {
  return new Context(update, detachedApi, detachedMe);
}

/** `sequenceConstraints` of a raw update, before any bot handles it (the journal records them on arrival). */
export function updateSequenceKeys(update: Update): string[] {
  return sequenceConstraints(detachedContext(update));
}
