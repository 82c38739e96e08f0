import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { AnyPgColumn, AnyPgTable } from "drizzle-orm/pg-core";
import type { Database } from "../../platform/db/client";
import { generations, ledgerEntries, payments, referrals, users } from "../../platform/db/schema";
import { makeReferralCode } from "./code";
import { type ReferralVerdict, referralVerdict } from "./rules";

export type ClaimOutcome = { verdict: ReferralVerdict; referrerId?: number | undefined };

/** Invite codes and who invited whom. */
export function createReferrals(db: Database) {
  /** The user's invite code, made at the first ask (a code taken already by chance is drawn again). */
  async function codeOf(userId: number): Promise<string | undefined> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const [row] = await db.select({ code: users.referralCode }).from(users).where(eq(users.id, userId));
      if (!row) return undefined;
      if (row.code) return row.code;
      await db
        .update(users)
        .set({ referralCode: makeReferralCode() })
        .where(and(eq(users.id, userId), isNull(users.referralCode)))
        .catch((err: unknown) => {
          // the unique index refused a code someone else has: draw again
          if (!isUniqueViolation(err)) throw err;
        });
    }
    throw new Error(`referrals: no free invite code for user ${userId}`);
  }

  /**
   * Records that `referredId` came through `code`, when the rules allow it
   * (see `referralVerdict`). The check and the insert are one transaction with
   * the newcomer's user row locked, so a repeated /start cannot record twice.
   */
  async function claim(referredId: number, code: string): Promise<ClaimOutcome> {
    return db.transaction(async (tx) => {
      const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.referralCode, code));
      const exists = (table: AnyPgTable, column: AnyPgColumn) =>
        sql<boolean>`exists(select 1 from ${table} where ${column} = ${referredId})`;
      const [facts] = await tx
        .select({
          hasCode: sql<boolean>`${users.referralCode} is not null`,
          entries: exists(ledgerEntries, ledgerEntries.userId),
          payments: exists(payments, payments.userId),
          generations: exists(generations, generations.userId),
          invitees: exists(referrals, referrals.referrerId),
          already: exists(referrals, referrals.referredId),
        })
        .from(users)
        .where(eq(users.id, referredId))
        .for("update");
      const verdict = referralVerdict({
        referredId,
        referrerId: owner?.id,
        // an unknown user (no row) is no newcomer: the registration middleware writes it first
        hasHistory:
          !facts || facts.hasCode || facts.entries || facts.payments || facts.generations || facts.invitees,
        alreadyReferred: facts?.already ?? false,
      });
      if (verdict !== "accepted") return { verdict, referrerId: owner?.id };
      const inserted = await tx
        .insert(referrals)
        .values({ referredId, referrerId: owner!.id })
        .onConflictDoNothing()
        .returning({ referredId: referrals.referredId });
      return { verdict: inserted.length === 1 ? "accepted" : "already-referred", referrerId: owner?.id };
    });
  }

  /** How many the user invited, and how many of them bought (their bonus paid). */
  async function statsOf(referrerId: number): Promise<{ invited: number; rewarded: number }> {
    const [row] = await db
      .select({
        invited: count(),
        rewarded: count(referrals.rewardedAt),
      })
      .from(referrals)
      .where(eq(referrals.referrerId, referrerId));
    return { invited: row?.invited ?? 0, rewarded: row?.rewarded ?? 0 };
  }

  async function of(referredId: number) {
    const [row] = await db.select().from(referrals).where(eq(referrals.referredId, referredId));
    return row;
  }

  return { codeOf, claim, statsOf, of };
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown; cause?: { code?: unknown } } | undefined) ?? {};
  return code.code === "23505" || code.cause?.code === "23505";
}
