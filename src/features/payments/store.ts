import { and, eq, sql } from "drizzle-orm";
import { planPeriodKey, purchaseKey, purchaseRefundKey } from "../../domain/credits/entry-keys";
import type { Ledger } from "../../domain/credits/ledger";
import type { Database, Transaction } from "../../platform/db/client";
import { payments } from "../../platform/db/schema";
import { endRefundedPeriod, type PlanPeriod, recordPeriod } from "./plan-subscriptions";

export type Payment = typeof payments.$inferSelect;

/** A Stars payment as Telegram reported it (successful_payment, or a transaction found by the reconciler). */
export interface PaidInput {
  userId: number;
  telegramChargeId: string;
  providerChargeId?: string | undefined;
  currency: string;
  totalAmount: number;
  /** credits the pack gives, bonus included, or the plan's period */
  credits: number;
  payload: string;
  packId?: string | undefined;
  /** a period of a monthly plan (a subscription's payment): recorded with its credits */
  period?: PlanPeriod | undefined;
  source: "update" | "reconciler";
  test: boolean;
}

/** Work done in the payment's own transaction: what a purchase or a refund also changes (referrals). */
export interface PaymentHooks {
  onPaid?(tx: Transaction, payment: Payment): Promise<void>;
  onRefunded?(tx: Transaction, payment: Payment): Promise<void>;
}

export type RefundOutcome =
  | { kind: "reversed"; payment: Payment; reversed: number; notReversed: number }
  | { kind: "already"; payment: Payment }
  | { kind: "missing" };

/**
 * The payments table and the credits it moves, one transaction each. The key
 * of everything is telegram_payment_charge_id: the row is inserted once, and
 * only the insert grants, so a repeated update, the reconciler finding a
 * payment the update already recorded, or a crash after the commit grant once.
 */
export function createPaymentStore(
  db: Database,
  ledger: Pick<Ledger, "grant" | "takeUpTo">,
  hooks: PaymentHooks = {},
) {
  async function recordPaid(input: PaidInput): Promise<{ applied: boolean; payment: Payment }> {
    return db.transaction(async (tx) => {
      const [fresh] = await tx
        .insert(payments)
        .values({
          userId: input.userId,
          telegramChargeId: input.telegramChargeId,
          providerChargeId: input.providerChargeId ?? null,
          currency: input.currency,
          totalAmount: input.totalAmount,
          credits: input.credits,
          payload: input.payload,
          packId: input.packId ?? null,
          source: input.source,
          test: input.test,
        })
        .onConflictDoNothing({ target: payments.telegramChargeId })
        .returning();
      if (!fresh) {
        const [existing] = await tx
          .select()
          .from(payments)
          .where(eq(payments.telegramChargeId, input.telegramChargeId));
        if (!existing) throw new Error(`payments: ${input.telegramChargeId} vanished after a conflict`);
        return { applied: false, payment: existing };
      }
      const what = input.period ? `plan ${input.period.planId}` : (input.packId ?? "pack");
      const note = `${what}: ${input.totalAmount} ${input.currency}${input.test ? " (test)" : ""}`;
      await ledger.grant(
        {
          userId: input.userId,
          amount: input.credits,
          key: (input.period ? planPeriodKey : purchaseKey)(input.telegramChargeId),
          kind: "purchase",
          note,
        },
        tx,
      );
      if (input.period) await recordPeriod(tx, input.userId, input.telegramChargeId, input.period);
      await hooks.onPaid?.(tx, fresh);
      return { applied: true, payment: fresh };
    });
  }

  /**
   * Marks a payment refunded and takes its credits back, never below zero
   * (what was already spent is reported as not reversed). A second refund of
   * the same charge finds it refunded and changes nothing.
   */
  async function refund(telegramChargeId: string): Promise<RefundOutcome> {
    return db.transaction(async (tx) => {
      const [payment] = await tx
        .select()
        .from(payments)
        .where(eq(payments.telegramChargeId, telegramChargeId))
        .for("update");
      if (!payment) return { kind: "missing" };
      if (payment.state === "refunded") return { kind: "already", payment };
      const taken = await ledger.takeUpTo(
        {
          userId: payment.userId,
          amount: payment.credits,
          key: purchaseRefundKey(telegramChargeId),
          note: `refund of ${payment.totalAmount} ${payment.currency}`,
        },
        tx,
      );
      const [updated] = await tx
        .update(payments)
        .set({
          state: "refunded",
          reversedCredits: taken.taken,
          notReversedCredits: taken.notTaken,
          refundedAt: sql`now()`,
        })
        .where(and(eq(payments.id, payment.id), eq(payments.state, "paid")))
        .returning();
      if (!updated) throw new Error(`payments: ${telegramChargeId} changed with its row locked`);
      await endRefundedPeriod(tx, updated.userId, telegramChargeId);
      await hooks.onRefunded?.(tx, updated);
      return { kind: "reversed", payment: updated, reversed: taken.taken, notReversed: taken.notTaken };
    });
  }

  /**
   * A refund of a payment not recorded yet (its successful_payment still to
   * come, or lost): the charge is recorded as refunded with nothing granted,
   * so the payment arriving later (a replay, the reconciler) finds it and
   * grants nothing. False when the payment was recorded meanwhile.
   */
  async function recordRefundedUnpaid(
    input: Omit<PaidInput, "credits" | "source" | "period">,
  ): Promise<boolean> {
    const [row] = await db
      .insert(payments)
      .values({
        userId: input.userId,
        telegramChargeId: input.telegramChargeId,
        currency: input.currency,
        totalAmount: input.totalAmount,
        credits: 0,
        payload: input.payload,
        packId: input.packId ?? null,
        test: input.test,
        state: "refunded",
        refundedAt: sql`now()`,
      })
      .onConflictDoNothing({ target: payments.telegramChargeId })
      .returning({ id: payments.id });
    return row !== undefined;
  }

  async function byCharge(telegramChargeId: string): Promise<Payment | undefined> {
    const [row] = await db.select().from(payments).where(eq(payments.telegramChargeId, telegramChargeId));
    return row;
  }

  return { recordPaid, refund, recordRefundedUnpaid, byCharge };
}
export type PaymentStore = ReturnType<typeof createPaymentStore>;
