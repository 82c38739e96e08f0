import { type Composer, GrammyError } from "grammy";
import { z } from "zod";
import type { BotContext } from "../../bot/context";
import type { Users } from "../../domain/users/users";
import { translateFor } from "../../platform/i18n/i18n";
import { argumentsOf } from "../../platform/lib/command-words";
import type { Payment, PaymentStore } from "../payments";
import { refundNotice } from "../payments";

/** A telegram_payment_charge_id as an admin may paste it. */
const chargeIdSchema = z.string().regex(/^[\w.:-]{1,255}$/);

export interface RefundDeps {
  payments: Pick<PaymentStore, "byCharge" | "refund">;
  users: Pick<Users, "get" | "reachablePrivately">;
}

/** Telegram's answer for a charge it already refunded (our row may not know yet). */
const alreadyRefunded = (err: unknown) =>
  err instanceof GrammyError && err.description.includes("CHARGE_ALREADY_REFUNDED");

/**
 * `/refund <charge id>` in an admin's private chat: the Stars go back through
 * Telegram first, then the credits are taken back once, never below zero. A
 * charge we do not know, one refunded already, or one Telegram refuses
 * changes nothing.
 */
export function registerRefund(admins: Composer<BotContext>, deps: RefundDeps): void {
  admins.chatType("private").command("refund", async (ctx) => {
    const words = argumentsOf(ctx);
    const parsed = chargeIdSchema.safeParse(words[0]);
    if (words.length !== 1 || !parsed.success) {
      await ctx.reply(ctx.t("refund-usage"));
      return;
    }
    const charge = parsed.data;
    const payment = await deps.payments.byCharge(charge);
    if (!payment) {
      await ctx.reply(ctx.t("refund-unknown-charge", { charge }));
      return;
    }
    if (payment.state === "refunded") {
      await ctx.reply(ctx.t("refund-already", { charge, reversed: payment.reversedCredits }));
      return;
    }
    try {
      await ctx.api.refundStarPayment(payment.userId, charge);
    } catch (err) {
      // refunded elsewhere already: the Stars are back with the user, so the credits go too
      if (!alreadyRefunded(err)) {
        const reason = err instanceof GrammyError ? err.description : "Telegram could not be reached";
        ctx.logger.info({ adminId: ctx.from.id, charge, reason }, "refund refused by Telegram");
        await ctx.reply(ctx.t("refund-refused", { charge, reason }));
        return;
      }
    }
    const outcome = await deps.payments.refund(charge);
    // "already": the refunded_payment update reversed it a moment ago; its row says how much
    const done: { payment: Payment; reversed: number; notReversed: number } | undefined =
      outcome.kind === "reversed"
        ? outcome
        : outcome.kind === "already"
          ? {
              payment: outcome.payment,
              reversed: outcome.payment.reversedCredits,
              notReversed: outcome.payment.notReversedCredits,
            }
          : undefined;
    if (!done) {
      await ctx.reply(ctx.t("refund-unknown-charge", { charge }));
      return;
    }
    ctx.logger.info(
      {
        adminId: ctx.from.id,
        userId: payment.userId,
        charge,
        reversed: done.reversed,
        notReversed: done.notReversed,
      },
      "admin refund applied",
    );
    const vars = {
      charge,
      user: payment.userId,
      stars: payment.totalAmount,
      reversed: done.reversed,
      missing: done.notReversed,
    };
    await ctx.reply(ctx.t(done.notReversed > 0 ? "refund-done-partly" : "refund-done", vars));
    if (outcome.kind === "reversed" && (await deps.users.reachablePrivately(payment.userId))) {
      const user = await deps.users.get(payment.userId);
      const notice = refundNotice(outcome.payment, outcome.reversed, outcome.notReversed);
      await ctx.api
        .sendMessage(payment.userId, translateFor(user?.language ?? "en", notice.key, notice.vars))
        .catch((err: unknown) => ctx.logger.info({ err, userId: payment.userId }, "refund notice not sent"));
    }
  });
}
