import type { CreditPack } from "../../platform/config/credit-packs";
import type { Translate } from "../../platform/i18n/i18n";
import { makePayload, packTotal } from "./packs";

/** A Stars invoice for a pack (XTR, one price, no provider token): what /buy sends and the Mini App opens as a link. */
export interface PackInvoice {
  title: string;
  description: string;
  payload: string;
  currency: "XTR";
  prices: Array<{ label: string; amount: number }>;
}

/** The invoice of `pack` for `userId`; its payload names the pack, its credits and Stars, and the buyer. */
export function packInvoice(pack: CreditPack, userId: number, t: Translate, sandbox: boolean): PackInvoice {
  const credits = packTotal(pack);
  const test = sandbox ? "-test" : "";
  return {
    title: t(`buy-invoice-title${test}`, { credits }),
    description: t(`buy-invoice-description${test}`, { credits }),
    payload: makePayload({ packId: pack.id, credits, stars: pack.stars, userId }),
    currency: "XTR",
    prices: [{ label: t("buy-price-label", { credits }), amount: pack.stars }],
  };
}
