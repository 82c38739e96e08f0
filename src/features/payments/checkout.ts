import { Composer } from "grammy";
import type { PreCheckoutQuery } from "grammy/types";
import type { BotContext } from "../../bot/context";
import { registerUser } from "../../bot/middleware/register-user";
import type { Ledger } from "../../domain/credits/ledger";
import type { Users } from "../../domain/users/users";
import type { CreditPack } from "../../platform/config/credit-packs";
import type { Plan } from "../../platform/config/plans";
import { negotiateLanguage } from "../../platform/i18n/i18n";
import { languageFromCode } from "../../platform/i18n/language";
import { chatMoment } from "../../platform/i18n/moments";
import { faultPoint } from "../../platform/lib/fault-point";
import { type InvoicePayload, packTotal, paidProduct, parsePayload } from "./packs";
import type { PlanSubscriptions } from "./plan-subscriptions";
import { refundNotice } from "./refunds";
import type { PaymentStore } from "./store";

export interface CheckoutDeps {
  packs: readonly CreditPack[];
  plans: readonly Plan[];
  subscriptions: Pick<PlanSubscriptions, "active">;
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
 * invoice must be ours and the buyer's, and its pack or plan still on sale at
 * the same Stars for the same credits. A plan is not sold to a user whose
 * plan runs and renews (a second subscription would charge twice a month).
 */
export function checkoutRefusal(
  query: Paid & { from: { id: number } },
  catalog: { packs: readonly CreditPack[]; plans: readonly Plan[] },
  running: { renews: boolean } | undefined,
): string | undefined {
  const invoice = invoiceOf(query);
  if (!invoice || invoice.userId !== query.from.id) return "buy-invoice-invalid";
  if (invoice.product === "plan") {
    const plan = catalog.plans.find((p) => p.id === invoice.id);
    if (!plan) return "plan-gone";
    if (plan.stars !== invoice.stars || plan.credits !== invoice.credits) return "plan-changed";
    return running?.renews ? "plan-already" : undefined;
  }
  const pack = catalog.packs.find((p) => p.id === invoice.id);
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
    const plan = parsePayload(query.invoice_payload)?.product === "plan";
    const [state, running] = await Promise.all([
      deps.users.banState(query.from.id),
      plan ? deps.subscriptions.active(query.from.id) : undefined,
    ]);
    ctx.i18n.useLocale(languageFromCode(state?.language ?? query.from.language_code));
    const refusal = state?.banned ? "banned-notice" : checkoutRefusal(query, deps, running);
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
      ...paidProduct(invoice, {
        at: new Date(ctx.message.date * 1000),
        endsAt: paid.subscription_expiration_date
          ? new Date(paid.subscription_expiration_date * 1000)
          : undefined,
        first: paid.is_first_recurring ? true : paid.is_recurring ? false : undefined,
      }),
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
    const vars = { credits: payment.credits, available };
    if (invoice.product === "plan") {
      const active = await deps.subscriptions.active(userId);
      const until = active ? chatMoment(negotiateLanguage(ctx), active.until).date : "";
      const text = ctx.t("plan-paid", { ...vars, plan: invoice.id, date: until });
      await ctx.reply(payment.test ? `${text}\n${ctx.t("plan-paid-test")}` : text);
      return;
    }
    await ctx.reply(ctx.t(payment.test ? "buy-paid-test" : "buy-paid", vars));
  });

  return feature;
}
