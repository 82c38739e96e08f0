import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../platform/db/client";
import { countOf, rowsOf } from "../../platform/db/raw-rows";
import {
  type BroadcastAudience,
  broadcastRecipients,
  broadcasts,
  type RecipientState,
  users,
} from "../../platform/db/schema";
import { audienceFilter } from "./audience";

export type Broadcast = typeof broadcasts.$inferSelect;

export interface NewBroadcast {
  adminId: number;
  /** one broadcast per confirmation, however often it is tapped */
  requestKey: string;
  source: { chatId: number; messageIds: number[] };
  audience: BroadcastAudience;
  /** a short description of the content for reports */
  text: string;
  language: string;
  progress: { chatId: number; messageId: number };
}

const copySource = z.object({
  chatId: z.number().int(),
  messageIds: z.array(z.number().int().positive()).min(1).max(100),
});
/** What a recipient's copy is made from. */
export type CopySource = z.infer<typeof copySource>;

export type RecipientCounts = Record<RecipientState, number> & { total: number };

/** How one recipient's copy ended. */
export type RecipientOutcome =
  | { state: "sent"; messageId: number }
  | { state: "blocked"; error: string }
  | { state: "failed"; error: string }
  /** no answer from Telegram: the copy may or may not have been made */
  | { state: "unconfirmed"; error: string };

/**
 * Broadcasts and their recipients in Postgres: who gets a broadcast is decided
 * once, in SQL, when it is created (memory stays flat whatever the audience),
 * and each recipient row moves pending → sending → sent | blocked | failed |
 * unconfirmed by conditional UPDATEs, so a copy is attempted at most once.
 */
export function createBroadcastStore(db: Database) {
  async function create(input: NewBroadcast): Promise<{ broadcast: Broadcast; created: boolean }> {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .insert(broadcasts)
        .values({
          adminId: input.adminId,
          requestKey: input.requestKey,
          text: input.text,
          sourceChatId: input.source.chatId,
          sourceMessageIds: input.source.messageIds,
          audience: input.audience,
          language: input.language,
          progressChatId: input.progress.chatId,
          progressMessageId: input.progress.messageId,
        })
        .onConflictDoNothing({ target: broadcasts.requestKey })
        .returning();
      if (!row) {
        const [existing] = await tx
          .select()
          .from(broadcasts)
          .where(eq(broadcasts.requestKey, input.requestKey));
        if (!existing) throw new Error(`broadcasts: ${input.requestKey} vanished after a conflict`);
        return { broadcast: existing, created: false };
      }
      const inserted = await tx.execute<{ user_id: number }>(sql`
        insert into ${broadcastRecipients} (broadcast_id, user_id)
        select ${row.id}::uuid, ${users.id} from ${users} where ${audienceFilter(input.audience)}
      `);
      const total = countOf(inserted);
      const [counted] = await tx
        .update(broadcasts)
        .set({ total })
        .where(eq(broadcasts.id, row.id))
        .returning();
      return { broadcast: counted ?? row, created: true };
    });
  }

  /** The latest broadcasts, newest first (the admins' view in the Mini App). */
  function latest(limit: number): Promise<Broadcast[]> {
    return db.select().from(broadcasts).orderBy(desc(broadcasts.createdAt)).limit(limit);
  }

  async function get(id: string): Promise<Broadcast | undefined> {
    const [row] = await db.select().from(broadcasts).where(eq(broadcasts.id, id));
    return row;
  }

  async function counts(id: string): Promise<RecipientCounts> {
    const rows = await db
      .select({ state: broadcastRecipients.state, n: sql<number>`count(*)`.mapWith(Number) })
      .from(broadcastRecipients)
      .where(eq(broadcastRecipients.broadcastId, id))
      .groupBy(broadcastRecipients.state);
    const out: RecipientCounts = {
      pending: 0,
      sending: 0,
      sent: 0,
      blocked: 0,
      failed: 0,
      unconfirmed: 0,
      total: 0,
    };
    for (const r of rows) {
      out[r.state] = r.n;
      out.total += r.n;
    }
    return out;
  }

  /** The next `limit` recipients still pending, after user id `cursor`. */
  async function pendingAfter(id: string, cursor: number, limit: number): Promise<number[]> {
    const rows = await db
      .select({ userId: broadcastRecipients.userId })
      .from(broadcastRecipients)
      .where(
        and(
          eq(broadcastRecipients.broadcastId, id),
          eq(broadcastRecipients.state, "pending"),
          gt(broadcastRecipients.userId, cursor),
        ),
      )
      .orderBy(asc(broadcastRecipients.userId))
      .limit(limit);
    return rows.map((r) => r.userId);
  }

  /**
   * pending → sending, only while the broadcast is still sending. The claim is
   * made before the copy: whatever happens after it, the copy is not tried again.
   */
  async function claim(id: string, userId: number): Promise<CopySource | undefined> {
    // one statement: the copy follows its commit with nothing else in between
    const claimed = await db.execute(sql`
      update ${broadcastRecipients} r set state = 'sending', updated_at = now()
      from ${broadcasts} b
      where r.broadcast_id = ${id} and r.user_id = ${userId} and r.state = 'pending'
        and b.id = r.broadcast_id and b.state = 'sending'
      returning b.source_chat_id as chat, b.source_message_ids as ids
    `);
    const row = rowsOf<{ chat: string | number; ids: unknown }>(claimed)[0];
    if (!row) return undefined;
    const ids: unknown = typeof row.ids === "string" ? JSON.parse(row.ids) : row.ids;
    return copySource.parse({ chatId: Number(row.chat), messageIds: ids });
  }

  /** sending → pending: Telegram refused the copy for flood control, so it was not made. */
  async function unclaim(id: string, userId: number): Promise<void> {
    await db
      .update(broadcastRecipients)
      .set({ state: "pending", updatedAt: sql`now()` })
      .where(recipient(id, userId, "sending"));
  }

  async function record(id: string, userId: number, outcome: RecipientOutcome): Promise<void> {
    await db
      .update(broadcastRecipients)
      .set({
        state: outcome.state,
        messageId: outcome.state === "sent" ? outcome.messageId : null,
        error: outcome.state === "sent" ? null : outcome.error.slice(0, 500),
        updatedAt: sql`now()`,
      })
      .where(recipient(id, userId, "sending"));
  }

  /**
   * Claims older than `olderThanMs` whose copy never reported back (its process
   * died during the call, before or after Telegram made it): unconfirmed, never copied again.
   */
  async function settleStaleClaims(id: string, olderThanMs: number): Promise<number> {
    const rows = await db
      .update(broadcastRecipients)
      .set({
        state: "unconfirmed",
        error: "the copy's worker stopped during the call",
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(broadcastRecipients.broadcastId, id),
          eq(broadcastRecipients.state, "sending"),
          lt(broadcastRecipients.updatedAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
        ),
      )
      .returning({ userId: broadcastRecipients.userId });
    return rows.length;
  }

  /** sending → done | cancelled; false when it had already left `sending`. */
  async function end(id: string, state: "done" | "cancelled"): Promise<boolean> {
    const rows = await db
      .update(broadcasts)
      .set({ state, finishedAt: sql`now()` })
      .where(and(eq(broadcasts.id, id), eq(broadcasts.state, "sending")))
      .returning({ id: broadcasts.id });
    return rows.length === 1;
  }

  /** Broadcasts still sending, oldest first (the reconciler resumes each). */
  async function unfinished(): Promise<Broadcast[]> {
    return db
      .select()
      .from(broadcasts)
      .where(eq(broadcasts.state, "sending"))
      .orderBy(asc(broadcasts.createdAt));
  }

  return {
    create,
    get,
    latest,
    counts,
    pendingAfter,
    claim,
    unclaim,
    record,
    settleStaleClaims,
    end,
    unfinished,
  };
}

export type BroadcastStore = ReturnType<typeof createBroadcastStore>;

function recipient(id: string, userId: number, state: RecipientState) {
  return and(
    eq(broadcastRecipients.broadcastId, id),
    eq(broadcastRecipients.userId, userId),
    eq(broadcastRecipients.state, state),
  );
}
