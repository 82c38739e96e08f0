import type { Api } from "grammy";
import type { CreditPack } from "../../platform/config/credit-packs";
import type { Plan } from "../../platform/config/plans";
import type { Translate } from "../../platform/i18n/i18n";
import { makePayload, packTotal } from "./packs";
import { subscriptionPeriodSeconds } from "./plan-subscriptions";

/** A Stars invoice (XTR, one price, no provider token): what /buy sends, and the link the Mini App and /plans open. */
export interface StarsInvoice {
  title: string;
  description: string;
  payload: string;
  currency: "XTR";
  prices: Array<{ label: string; amount: number }>;
  /** a monthly plan's invoice is a subscription: Telegram charges it again each period */
  subscriptionPeriod?: number;
}

/** The invoice of `pack` for `userId`; its payload names the pack, its credits and Stars, and the buyer. */
export function packInvoice(pack: CreditPack, userId: number, t: Translate, sandbox: boolean): StarsInvoice {
  const credits = packTotal(pack);
  const test = sandbox ? "-test" : "";
  return {
    title: t(`buy-invoice-title${test}`, { credits }),
    description: t(`buy-invoice-description${test}`, { credits }),
    payload: makePayload({ product: "pack", id: pack.id, credits, stars: pack.stars, userId }),
    currency: "XTR",
    prices: [{ label: t("buy-price-label", { credits }), amount: pack.stars }],
  };
}

/** The subscription invoice of `plan` for `userId`: each period (30 days) grants the plan's credits. */
export function planInvoice(plan: Plan, userId: number, t: Translate, sandbox: boolean): StarsInvoice {
  const vars = { plan: plan.id, credits: plan.credits, discount: plan.discount };
  const test = sandbox ? "-test" : "";
  return {
    title: t(`plan-invoice-title${test}`, vars),
    description: t(`plan-invoice-description${test}`, vars),
    payload: makePayload({ product: "plan", id: plan.id, credits: plan.credits, stars: plan.stars, userId }),
    currency: "XTR",
    prices: [{ label: t("plan-price-label", vars), amount: plan.stars }],
    subscriptionPeriod: subscriptionPeriodSeconds,
  };
}

/** The invoice as a link (createInvoiceLink): what a Mini App opens, and a subscription's only form. */
export function invoiceLink(api: Pick<Api, "createInvoiceLink">, invoice: StarsInvoice): Promise<string> {
  return api.createInvoiceLink(
    invoice.title,
    invoice.description,
    invoice.payload,
    "",
    invoice.currency,
    invoice.prices,
    invoice.subscriptionPeriod === undefined ? {} : { subscription_period: invoice.subscriptionPeriod },
  );
}
