import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { promoGrantKey } from "../../domain/credits/entry-keys";
import type { Ledger } from "../../domain/credits/ledger";
import type { Database } from "../../platform/db/client";
import { type PromoCode, promoCodes, users } from "../../platform/db/schema";
import type { NewPromo } from "./rules";

export type Redemption =
  | { outcome: "granted"; credits: number; available: number }
  | { outcome: "unknown" | "ended" | "expired" | "used-up" | "not-new" | "already" };

export type CreateOutcome = "created" | "taken";

export interface PromoDeps {
  db: Database;
  ledger: Pick<Ledger, "grant" | "moved" | "account">;
}

/** The newest codes first (as many as one message holds), with their redemptions so far. */
export function newestPromoCodes(db: Database, limit: number): Promise<PromoCode[]> {
  return db.select().from(promoCodes).orderBy(desc(promoCodes.createdAt), promoCodes.code).limit(limit);
}

/** Promo codes: made and ended by admins, redeemed by users, each grant a ledger entry. */
export function createPromoCodes({ db, ledger }: PromoDeps) {
  async function create(promo: NewPromo, createdBy: number): Promise<CreateOutcome> {
    const inserted = await db
      .insert(promoCodes)
      .values({
        code: promo.code,
        credits: promo.credits,
        maxUses: promo.maxUses,
        newUsersOnly: promo.newUsersOnly,
        expiresAt: promo.days ? sql`now() + make_interval(days => ${promo.days})` : null,
        createdBy,
      })
      .onConflictDoNothing()
      .returning({ code: promoCodes.code });
    return inserted.length === 1 ? "created" : "taken";
  }

  /** Ends a code now: no redemption after this. False when there is no such code, or it had ended. */
  async function end(code: string): Promise<boolean> {
    const ended = await db
      .update(promoCodes)
      .set({ endedAt: sql`now()` })
      .where(and(eq(promoCodes.code, code), isNull(promoCodes.endedAt)))
      .returning({ code: promoCodes.code });
    return ended.length === 1;
  }

  /**
   * Grants the code's credits to `userId` once. The code's row is locked for the
   * transaction, so redemptions racing for its last uses are taken one at a time
   * and `used` never passes `max_uses`; the grant's unique key keeps it to once per user.
   */
  async function redeem(code: string, userId: number): Promise<Redemption> {
    return db.transaction(async (tx) => {
      const [promo] = await tx
        .select({
          credits: promoCodes.credits,
          maxUses: promoCodes.maxUses,
          used: promoCodes.used,
          ended: sql<boolean>`${promoCodes.endedAt} is not null`,
          expired: sql<boolean>`coalesce(${promoCodes.expiresAt} <= now(), false)`,
          newUsersOnly: promoCodes.newUsersOnly,
          createdAt: promoCodes.createdAt,
        })
        .from(promoCodes)
        .where(eq(promoCodes.code, code))
        .for("update");
      if (!promo) return { outcome: "unknown" as const };
      const key = promoGrantKey(code, userId);
      if ((await ledger.moved("grant", key, tx)) > 0) return { outcome: "already" as const };
      if (promo.ended) return { outcome: "ended" as const };
      if (promo.expired) return { outcome: "expired" as const };
      if (promo.newUsersOnly) {
        const [user] = await tx
          .select({ firstSeenAt: users.firstSeenAt })
          .from(users)
          .where(eq(users.id, userId));
        if (!user || user.firstSeenAt < promo.createdAt) return { outcome: "not-new" as const };
      }
      if (promo.used >= promo.maxUses) return { outcome: "used-up" as const };
      await ledger.grant(
        { userId, amount: promo.credits, key, kind: "grant", note: `promo code ${code}` },
        tx,
      );
      await tx
        .update(promoCodes)
        .set({ used: sql`${promoCodes.used} + 1` })
        .where(eq(promoCodes.code, code));
      const { available } = await ledger.account(userId, tx);
      return { outcome: "granted" as const, credits: promo.credits, available };
    });
  }

  return { create, end, list: (limit = 30) => newestPromoCodes(db, limit), redeem };
}

export type PromoCodes = ReturnType<typeof createPromoCodes>;
