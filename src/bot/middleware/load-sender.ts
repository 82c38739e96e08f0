import { eq, sql } from "drizzle-orm";
import type { MiddlewareFn } from "grammy";
import { kvStore, users } from "../../db/schema";
import type { BotContext } from "../context";
import { conversationStorageKey } from "../conversations/plugin";

/**
 * One read for what every update of a person needs: their row (the banned
 * check, the registration) and their stored conversation, if the update can
 * have one. A new person has no row, and so no conversation yet either.
 */
export function loadSender(): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const from = ctx.from;
    if (!from || from.is_bot) return next();
    const key = conversationStorageKey(ctx);
    const [row] = await ctx.deps.db
      .select({
        user: users,
        conversation:
          key === undefined
            ? sql<null>`null`
            : sql<
                string | null
              >`(select ${kvStore.value}::text from ${kvStore} where ${kvStore.key} = ${key})`,
      })
      .from(users)
      .where(eq(users.id, from.id));
    ctx.knownUser = row?.user;
    ctx.storedConversation = key === undefined ? undefined : { json: row?.conversation ?? null };
    return next();
  };
}
