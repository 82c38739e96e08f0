import { Composer } from "grammy";
import type { BotContext } from "../../bot/context";
import type { Payment, PaymentStore } from "./store";

/** What a reversed refund tells the user: the Stars returned and the credits taken back (and not). */
export function refundNotice(payment: Payment, reversed: number, notReversed: number) {
  return {
    key: notReversed > 0 ? "refund-user-notice-partly" : "refund-user-notice",
    vars: { stars: payment.totalAmount, reversed, missing: notReversed },
  };
}

/**
 * `refunded_payment`: a refund made elsewhere (or the echo of our own
 * /refund). The payment is reversed once; whoever reversed it tells the user,
 * so the echo of an admin's /refund says nothing more.
 */
export function refundedPaymentFeature(deps: {
  payments: Pick<PaymentStore, "refund" | "recordRefundedUnpaid">;
  /** sandbox or playground: test payments */
  test: boolean;
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.on("message:refunded_payment", async (ctx) => {
    const refunded = ctx.message.refunded_payment;
    const chargeId = refunded.telegram_payment_charge_id;
    let outcome = await deps.payments.refund(chargeId);
    if (outcome.kind === "missing") {
      // refunded before its payment was recorded: whatever brings the payment later must grant nothing
      const fenced = await deps.payments.recordRefundedUnpaid({
        userId: ctx.from.id,
        telegramChargeId: chargeId,
        currency: refunded.currency,
        totalAmount: refunded.total_amount,
        payload: refunded.invoice_payload,
        test: deps.test,
      });
      if (!fenced) outcome = await deps.payments.refund(chargeId);
    }
    if (outcome.kind !== "reversed") {
      ctx.logger.info(
        { userId: ctx.from.id, chargeId, outcome: outcome.kind },
        "refunded_payment: nothing to reverse",
      );
      return;
    }
    ctx.logger.info(
      { userId: ctx.from.id, chargeId, reversed: outcome.reversed, notReversed: outcome.notReversed },
      "payment refunded elsewhere: reversed",
    );
    const notice = refundNotice(outcome.payment, outcome.reversed, outcome.notReversed);
    await ctx.reply(ctx.t(notice.key, notice.vars));
  });
  return feature;
}
