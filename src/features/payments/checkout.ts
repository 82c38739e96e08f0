import { Composer } from "grammy";
import type { PreCheckoutQuery } from "grammy/types";
import type { BotContext } from "../../bot/context";
import { registerUser } from "../../bot/middleware/register-user";
import type { Ledger } from "../../domain/credits/ledger";
import type { Users } from "../../domain/users/users";
import type { CreditPack } from "../../platform/config/credit-packs";
import { languageFromCode } from "../../platform/i18n/language";
import { faultPoint } from "../../platform/lib/fault-point";
import { type InvoicePayload, packTotal, parsePayload } from "./packs";
import { refundNotice } from "./refunds";
import type { PaymentStore } from "./store";

export interface CheckoutDeps {
  packs: readonly CreditPack[];
  payments: Pick<PaymentStore, "recordPaid">;
  users: Pick<Users, "banState" | "touch">;
  ledger: Pick<Ledger, "account">;
  /** sandbox or playground: payments are recorded as test payments */
  sandbox: boolean;
}

type Paid = Pick<PreCheckoutQuery, "currency" | "total_amount" | "invoice_payload">;

/** The invoice's payload when the amount paid is the one it was made for. */
function invoiceOf(paid: Paid): InvoicePayload | undefined {
  const payload = parsePayload(paid.invoice_payload);
  if (!payload || paid.currency !== "XTR" || paid.total_amount !== payload.stars) return undefined;
  return payload;
}

/**
 * Why a checkout is refused (a locale key), or undefined to accept: the
 * invoice must be ours and the buyer's, and its pack still on sale at the
 * same Stars for the same credits.
 */
export function checkoutRefusal(
  query: Paid & { from: { id: number } },
  packs: readonly CreditPack[],
): string | undefined {
  const invoice = invoiceOf(query);
  if (!invoice || invoice.userId !== query.from.id) return "buy-invoice-invalid";
  const pack = packs.find((p) => p.id === invoice.packId);
  if (!pack) return "buy-pack-gone";
  if (pack.stars !== invoice.stars || packTotal(pack) !== invoice.credits) return "buy-pack-changed";
  return undefined;
}

/**
 * pre_checkout_query and successful_payment, registered before the
 * conversations (an open conversation never takes a payment). The
 * pre-checkout answer does one read (is the buyer banned, in which language)
 * and no other slow work: Telegram gives it 10 seconds. A successful payment
 * is recorded once per charge id; the receipt is sent every time the update
 * is handled (a redelivery, or the journal's replay after a crash between the
 * grant and the reply), which is harmless.
 */
export function checkoutFeature(deps: CheckoutDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();

  feature.on("pre_checkout_query", async (ctx) => {
    const query = ctx.preCheckoutQuery;
    const state = await deps.users.banState(query.from.id);
    ctx.i18n.useLocale(languageFromCode(state?.language ?? query.from.language_code));
    const refusal = state?.banned ? "banned-notice" : checkoutRefusal(query, deps.packs);
    if (refusal === undefined) {
      await ctx.answerPreCheckoutQuery(true);
      return;
    }
    ctx.logger.info({ userId: query.from.id, payload: query.invoice_payload, refusal }, "checkout refused");
    await ctx.answerPreCheckoutQuery(false, { error_message: ctx.t(refusal) });
  });

  feature.on("message:successful_payment", registerUser(deps.users), async (ctx) => {
    const paid = ctx.message.successful_payment;
    const userId = ctx.from.id;
    const invoice = invoiceOf(paid);
    if (!invoice) {
      ctx.logger.warn(
        { userId, chargeId: paid.telegram_payment_charge_id, payload: paid.invoice_payload },
        "a payment that matches no invoice of ours: not granted",
      );
      await ctx.reply(ctx.t("buy-paid-unreadable", { charge: paid.telegram_payment_charge_id }));
      return;
    }
    const { payment } = await deps.payments.recordPaid({
      userId,
      telegramChargeId: paid.telegram_payment_charge_id,
      providerChargeId: paid.provider_payment_charge_id || undefined,
      currency: paid.currency,
      totalAmount: paid.total_amount,
      credits: invoice.credits,
      payload: paid.invoice_payload,
      packId: invoice.packId,
      source: "update",
      test: deps.sandbox,
    });
    faultPoint("payment:after-grant");
    if (payment.state === "refunded") {
      // refunded before this update came (a replay, a late delivery): nothing was granted for it
      const notice = refundNotice(payment, payment.reversedCredits, payment.notReversedCredits);
      await ctx.reply(ctx.t(notice.key, notice.vars));
      return;
    }
    const { available } = await deps.ledger.account(userId);
    await ctx.reply(
      ctx.t(payment.test ? "buy-paid-test" : "buy-paid", { credits: payment.credits, available }),
    );
  });

  return feature;
}
