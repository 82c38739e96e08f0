import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Plan } from "../../platform/config/plans";
import type { Database, Transaction } from "../../platform/db/client";
import { type PlanSubscription, planSubscriptions } from "../../platform/db/schema";

/** Telegram's only subscription period: 30 days. */
export const subscriptionPeriodSeconds = 30 * 24 * 3600;

/** A paid period of a plan, as a successful_payment or a Stars transaction tells it. */
export interface PlanPeriod {
  planId: string;
  /** when this period ends: the payment's subscription_expiration_date, or its date and the period */
  endsAt: Date;
  paidAt: Date;
  /**
   * is_first_recurring: true for the first payment of a subscription, false
   * for a renewal; undefined when not told (a transaction found by the reconciler)
   */
  first: boolean | undefined;
}

/**
 * Records a paid period in the payment's transaction. A renewal (the same
 * plan, still running when paid, or said to be one) moves the end and keeps
 * the subscription's charge id and whether its renewal was cancelled; a first
 * payment starts the row afresh. Periods met out of order (a renewal before
 * the one it followed, found later by the reconciler) never move the end back.
 */
export async function recordPeriod(
  tx: Transaction,
  userId: number,
  chargeId: string,
  period: PlanPeriod,
): Promise<void> {
  const [row] = await tx
    .select()
    .from(planSubscriptions)
    .where(eq(planSubscriptions.userId, userId))
    .for("update");
  const renewal =
    row !== undefined &&
    row.planId === period.planId &&
    period.first !== true &&
    (period.first === false || row.periodEndsAt >= new Date(period.paidAt.getTime() - 24 * 3600_000));
  if (!row) {
    await tx.insert(planSubscriptions).values({
      userId,
      planId: period.planId,
      subscriptionChargeId: chargeId,
      lastChargeId: chargeId,
      periodEndsAt: period.endsAt,
    });
    return;
  }
  if (renewal) {
    if (period.endsAt <= row.periodEndsAt) return;
    await tx
      .update(planSubscriptions)
      .set({ lastChargeId: chargeId, periodEndsAt: period.endsAt, updatedAt: sql`now()` })
      .where(eq(planSubscriptions.userId, userId));
    return;
  }
  await tx
    .update(planSubscriptions)
    .set({
      planId: period.planId,
      subscriptionChargeId: chargeId,
      lastChargeId: chargeId,
      periodEndsAt: period.endsAt,
      canceledAt: null,
      startedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(planSubscriptions.userId, userId));
}

/** A refunded period that is the plan's latest ends the plan now: its credits were taken back, and so is its discount. */
export async function endRefundedPeriod(tx: Transaction, userId: number, chargeId: string): Promise<void> {
  await tx
    .update(planSubscriptions)
    .set({ periodEndsAt: sql`least(${planSubscriptions.periodEndsAt}, now())`, updatedAt: sql`now()` })
    .where(and(eq(planSubscriptions.userId, userId), eq(planSubscriptions.lastChargeId, chargeId)));
}

/** A plan whose paid period still runs: which plan, until when, and whether it renews. */
export interface ActivePlan {
  planId: string;
  until: Date;
  renews: boolean;
  subscriptionChargeId: string;
}

const activeOf = (row: PlanSubscription): ActivePlan => ({
  planId: row.planId,
  until: row.periodEndsAt,
  renews: row.canceledAt === null,
  subscriptionChargeId: row.subscriptionChargeId,
});

/** The plans' store; `plans`: those on sale now, whose discounts apply. */
export function createPlanSubscriptions(db: Database, plans: readonly Plan[]) {
  /** The user's plan while its period runs; undefined once it ended (or never was). */
  async function active(userId: number): Promise<ActivePlan | undefined> {
    const [row] = await db
      .select()
      .from(planSubscriptions)
      .where(and(eq(planSubscriptions.userId, userId), gt(planSubscriptions.periodEndsAt, sql`now()`)));
    return row ? activeOf(row) : undefined;
  }

  return {
    active,

    /** The percent off every request of this user: their running plan's, 0 without one (or when it is no longer on sale). */
    async discountOf(userId: number): Promise<number> {
      const plan = await active(userId);
      return plan ? (plans.find((p) => p.id === plan.planId)?.discount ?? 0) : 0;
    },

    /** Marks the running plan's renewal cancelled (or resumed); false when no plan runs or it already was. */
    async setRenewal(userId: number, renews: boolean): Promise<boolean> {
      const rows = await db
        .update(planSubscriptions)
        .set({ canceledAt: renews ? null : sql`now()`, updatedAt: sql`now()` })
        .where(
          and(
            eq(planSubscriptions.userId, userId),
            gt(planSubscriptions.periodEndsAt, sql`now()`),
            renews ? sql`${planSubscriptions.canceledAt} is not null` : isNull(planSubscriptions.canceledAt),
          ),
        )
        .returning({ userId: planSubscriptions.userId });
      return rows.length > 0;
    },
  };
}
export type PlanSubscriptions = ReturnType<typeof createPlanSubscriptions>;
