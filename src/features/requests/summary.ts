import type { Quote } from "../../domain/generations/quote";
import type { PriceQuote } from "../../domain/pricing/prices";
import type { Translate } from "../../platform/i18n/i18n";

/* What a panel's summary says of the price, shared by every panel and its options. */

/** A choice label with what it would cost. */
export function priced(t: Translate, label: string, credits: number | null | undefined): string {
  return typeof credits === "number" ? t("cv-choice-price", { label, price: credits }) : label;
}

/** The last line of every summary, set apart: the price and the balance (and the plan's discount in it). */
export function priceLines(t: Translate, quote: Quote, available: number): string {
  const line = quote.ok
    ? t(quote.upTo ? "cv-line-price-up-to" : "cv-line-price", { price: quote.credits, available })
    : t("cv-line-no-price", { available });
  const discount =
    quote.ok && quote.discount ? `\n${t("cv-line-plan-discount", { discount: quote.discount })}` : "";
  return `\n${line}${discount}`;
}

/** Confirm's label: the price it charges, "up to" where the charge may come out lower. */
export function confirmLabel(t: Translate, quote: Quote): string {
  if (!quote.ok) return t("cv-btn-confirm-no-price");
  return t(quote.upTo ? "cv-btn-confirm-up-to" : "cv-btn-confirm", { price: quote.credits });
}

/** The price shown is more than the user has: the panel offers the packs. */
export function lacksCredits(quote: PriceQuote, available: number): boolean {
  return quote.ok && quote.credits > available;
}

/** Long prompts are cut in a summary to this length; the whole prompt is what is sent. */
export const summaryPromptLength = 300;
