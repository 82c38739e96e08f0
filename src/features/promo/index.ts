import type { Feature } from "../../bot/feature";
import { type PromoFeatureDeps, promoCommands, promoFeature } from "./feature";

/** Promo codes: /redeem, promo links (through /start), and the admins' /promo. Code outside this folder imports it from here only. */
export { claimPromo, promoLines } from "./feature";
export { newestPromoCodes } from "./store";

export const promo: Feature<PromoFeatureDeps> = {
  name: "promo",
  commands: promoCommands,
  bot: (deps) => [{ phase: "feature", composer: promoFeature(deps) }],
};
