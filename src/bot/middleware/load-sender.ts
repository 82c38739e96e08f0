import { eq, sql } from "drizzle-orm";
import type { Context, MiddlewareFn } from "grammy";
import type { Database } from "../../db/client";
import { kvStore, users } from "../../db/schema";
import { groupCommit } from "../../lib/group-commit";
import type { UserRecord } from "../../users/users";
import type { BotContext } from "../context";
import { conversationStorageKey } from "../conversations/plugin";

export interface SenderRead {
  id: number;
  /** the stored conversation's key, when the update can have one */
  key: string | undefined;
}

export interface Sender {
  user: UserRecord | undefined;
  conversation: string | null;
}

/** What an update's sender read asks for; undefined when it comes from no person. */
export function senderToRead(ctx: Pick<Context, "chatId" | "from">): SenderRead | undefined {
  const from = ctx.from;
  if (!from || from.is_bot) return undefined;
  return { id: from.id, key: conversationStorageKey(ctx) };
}

/**
 * One read for what every update of a person needs: their row (the banned
 * check, the registration) and their stored conversation, if the update can
 * have one. A new person has no row, and so no conversation yet either. The
 * reads of updates in hand at the same time go to Postgres as one statement.
 * Usually the update's claim has read them already (`ctx.claimedSender`).
 */
export function loadSender(db: Database): MiddlewareFn<BotContext> {
  // built once: every update of a person runs it, and drizzle's building costs more than Postgres's answer
  const senders = db
    .select({
      i: sql<number>`q.i`.mapWith(Number),
      user: users,
      conversation: sql<string | null>`${kvStore.value}::text`,
    })
    .from(sql`jsonb_to_recordset(${sql.placeholder("asked")}::jsonb) as q(i integer, id bigint, key text)`)
    .leftJoin(users, eq(users.id, sql`q.id`))
    .leftJoin(kvStore, eq(kvStore.key, sql`q.key`))
    .prepare("load_senders");
  const read = groupCommit(async (wanted: readonly SenderRead[]): Promise<Sender[]> => {
    const asked = JSON.stringify(wanted.map((w, i) => ({ i, id: w.id, key: w.key ?? null })));
    const rows = await senders.execute({ asked });
    const found: Sender[] = wanted.map(() => ({ user: undefined, conversation: null }));
    for (const r of rows) found[r.i] = { user: r.user ?? undefined, conversation: r.conversation };
    return found;
  });

  return async (ctx, next) => {
    const wanted = senderToRead(ctx);
    if (!wanted) return next();
    const sender = ctx.claimedSender ?? (await read(wanted));
    ctx.knownUser = sender.user;
    ctx.storedConversation = wanted.key === undefined ? undefined : { json: sender.conversation };
    return next();
  };
}
