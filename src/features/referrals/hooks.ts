import { and, eq, isNull, sql } from "drizzle-orm";
import type { Ledger } from "../../domain/credits/ledger";
import type { Transaction } from "../../platform/db/client";
import { referrals } from "../../platform/db/schema";
import type { Payment, PaymentHooks, PaymentStore } from "../payments";

export type ReferralSide = "referrer" | "referred";
export const referralBonusKey = (referredId: number, side: ReferralSide) => `referral-${referredId}-${side}`;
export const referralRevokeKey = (referredId: number, side: ReferralSide) =>
  `referral-revoke-${referredId}-${side}`;

/** A bonus paid, to tell the inviter about once the payment's transaction committed. */
export interface ReferralNotice {
  referrerId: number;
  referredId: number;
  amount: number;
}

export interface ReferralHookDeps {
  ledger: Pick<Ledger, "grant" | "takeUpTo" | "moved">;
  /** credits to each side; 0: no bonus */
  bonus: number;
  /** tells the inviter (best effort: its failure changes nothing) */
  notify?(notice: ReferralNotice): Promise<void>;
}

const sides: ReferralSide[] = ["referrer", "referred"];

/**
 * The referral bonus, inside the payment store's transactions: the invited
 * user's first purchase pays both sides once (the referral row is marked
 * rewarded by a conditional update), and a refund of that purchase takes both
 * bonuses back, never below zero.
 */
export function referralHooks(deps: ReferralHookDeps) {
  /** notices of payments whose transaction may still roll back, by charge id */
  const pending = new Map<string, ReferralNotice>();

  const hooks: Required<PaymentHooks> = {
    async onPaid(tx: Transaction, payment: Payment) {
      if (deps.bonus <= 0) return;
      const [row] = await tx
        .update(referrals)
        .set({ rewardChargeId: payment.telegramChargeId, rewardedAt: sql`now()` })
        .where(and(eq(referrals.referredId, payment.userId), isNull(referrals.rewardedAt)))
        .returning();
      if (!row) return;
      const owner = { referrer: row.referrerId, referred: row.referredId };
      for (const side of sides) {
        await deps.ledger.grant(
          {
            userId: owner[side],
            amount: deps.bonus,
            key: referralBonusKey(row.referredId, side),
            kind: "grant",
            note: "referral bonus",
          },
          tx,
        );
      }
      pending.set(payment.telegramChargeId, {
        referrerId: row.referrerId,
        referredId: row.referredId,
        amount: deps.bonus,
      });
    },

    async onRefunded(tx: Transaction, payment: Payment) {
      const [row] = await tx
        .update(referrals)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            eq(referrals.referredId, payment.userId),
            eq(referrals.rewardChargeId, payment.telegramChargeId),
            isNull(referrals.revokedAt),
          ),
        )
        .returning();
      if (!row) return;
      const owner = { referrer: row.referrerId, referred: row.referredId };
      for (const side of sides) {
        // what was granted then, whatever the bonus is configured to now
        const granted = await deps.ledger.moved("grant", referralBonusKey(row.referredId, side), tx);
        if (granted <= 0) continue;
        await deps.ledger.takeUpTo(
          {
            userId: owner[side],
            amount: granted,
            key: referralRevokeKey(row.referredId, side),
            note: "referral bonus taken back (purchase refunded)",
          },
          tx,
        );
      }
    },
  };

  /**
   * The store with the inviter told after a purchase that paid a bonus has
   * committed (the hooks run inside its transaction, which may still fail).
   */
  function withNotices(store: PaymentStore): PaymentStore {
    return {
      ...store,
      async recordPaid(input) {
        try {
          const result = await store.recordPaid(input);
          const notice = pending.get(input.telegramChargeId);
          if (notice && deps.notify) await deps.notify(notice).catch(() => undefined);
          return result;
        } finally {
          pending.delete(input.telegramChargeId);
        }
      },
    };
  }

  return { ...hooks, withNotices };
}
