import type { Translate } from "../../platform/i18n/i18n";
import type { CreateResult } from "./types";

/** Why `generations.create` made nothing. */
export type Refusal = Exclude<CreateResult, { ok: true }>;

/** What the user reads when a request is refused: the chat's confirm and the Mini App's /generate say the same. */
export function refusalText(t: Translate, refusal: Refusal): string {
  switch (refusal.reason) {
    case "insufficient": {
      const { price, available, missing } = refusal;
      return t("gen-insufficient", { price, available, missing });
    }
    case "price_changed":
      return t("cv-price-changed", { price: refusal.price });
    case "no_price":
      return t("cv-no-price");
    case "banned":
      return t("banned-notice");
    case "refused_prompt":
      return t("prompt-refused");
    case "invalid":
      return t("cv-invalid", { problem: refusal.message });
  }
}
