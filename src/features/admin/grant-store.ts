import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Ledger } from "../../domain/credits/ledger";
import type { Database } from "../../platform/db/client";
import { kvStore } from "../../platform/db/schema";

/**
 * A /grant waiting for its Confirm, kept in `kv_store` under the admin's chat
 * and the command's message id. Confirming moves the credits and marks it done
 * in one transaction, with the row and the user's account locked, so a second
 * tap (or a second process) finds it done and moves nothing.
 */
const pendingSchema = z.object({
  v: z.literal(1),
  adminId: z.number().int(),
  targetId: z.number().int().positive(),
  amount: z.number().int(),
  reason: z.string().nullable(),
  state: z.enum(["pending", "done", "cancelled"]),
  moved: z.number().int().optional(),
  notTaken: z.number().int().optional(),
});
export type PendingGrant = z.infer<typeof pendingSchema>;

export type ConfirmOutcome =
  | { kind: "done"; grant: PendingGrant; moved: number; notTaken: number; available: number }
  | { kind: "already"; grant: PendingGrant }
  | { kind: "cancelled" }
  | { kind: "missing" };

export const grantStoreKey = (chatId: number, messageId: number) => `admin-grant:${chatId}:${messageId}`;
/** The ledger entry's key: one per command message, whatever happens to the button. */
export const grantLedgerKey = (chatId: number, messageId: number) => `admin-grant:${chatId}:${messageId}`;

export function grantStore(db: Database, ledger: Pick<Ledger, "grant" | "takeUpTo" | "account">) {
  async function propose(
    chatId: number,
    messageId: number,
    grant: Omit<PendingGrant, "v" | "state">,
  ): Promise<void> {
    const value: PendingGrant = { v: 1, state: "pending", ...grant };
    // a replayed command proposes again; the stored one (maybe done already) stays
    await db
      .insert(kvStore)
      .values({ key: grantStoreKey(chatId, messageId), value })
      .onConflictDoNothing();
  }

  async function confirm(chatId: number, messageId: number, adminId: number): Promise<ConfirmOutcome> {
    const key = grantStoreKey(chatId, messageId);
    return db.transaction(async (tx) => {
      const [row] = await tx
        .select({ json: sql<string>`${kvStore.value}::text` })
        .from(kvStore)
        .where(eq(kvStore.key, key))
        .for("update");
      const parsed = row ? pendingSchema.safeParse(JSON.parse(row.json)) : undefined;
      if (!parsed?.success || parsed.data.adminId !== adminId) return { kind: "missing" };
      const grant = parsed.data;
      if (grant.state === "done") return { kind: "already", grant };
      if (grant.state === "cancelled") return { kind: "cancelled" };

      const note = `admin ${adminId}${grant.reason ? `: ${grant.reason}` : ""}`.slice(0, 500);
      const entry = { userId: grant.targetId, key: grantLedgerKey(chatId, messageId), note };
      let moved = grant.amount;
      let notTaken = 0;
      if (grant.amount > 0) await ledger.grant({ ...entry, amount: grant.amount }, tx);
      else {
        // never below zero: take what is there
        const taken = await ledger.takeUpTo({ ...entry, amount: -grant.amount }, tx);
        moved = -taken.taken;
        notTaken = taken.notTaken;
      }
      const done: PendingGrant = { ...grant, state: "done", moved, notTaken };
      await tx.update(kvStore).set({ value: done, updatedAt: sql`now()` }).where(eq(kvStore.key, key));
      const { available } = await ledger.account(grant.targetId, tx);
      return { kind: "done", grant: done, moved, notTaken, available };
    });
  }

  /** Cancels a pending grant; a done one stays done. */
  async function cancel(chatId: number, messageId: number, adminId: number): Promise<ConfirmOutcome> {
    const key = grantStoreKey(chatId, messageId);
    return db.transaction(async (tx) => {
      const [row] = await tx
        .select({ json: sql<string>`${kvStore.value}::text` })
        .from(kvStore)
        .where(eq(kvStore.key, key))
        .for("update");
      const parsed = row ? pendingSchema.safeParse(JSON.parse(row.json)) : undefined;
      if (!parsed?.success || parsed.data.adminId !== adminId) return { kind: "missing" };
      if (parsed.data.state === "done") return { kind: "already", grant: parsed.data };
      const cancelled: PendingGrant = { ...parsed.data, state: "cancelled" };
      await tx.update(kvStore).set({ value: cancelled, updatedAt: sql`now()` }).where(eq(kvStore.key, key));
      return { kind: "cancelled" };
    });
  }

  return { propose, confirm, cancel };
}

export type GrantStore = ReturnType<typeof grantStore>;
