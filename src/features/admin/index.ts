import type { Feature } from "../../bot/feature";
import { type AdminFeatureDeps, adminFeature } from "./feature";

/** The admin feature: /stats, /user, /grant, /refund, /ban (its composer). Code outside this folder imports it from here only. */
export { collectStats } from "./stats";

export const admin: Feature<
  Omit<AdminFeatureDeps, "adminIds"> & { config: { adminIds: readonly number[] } }
> = {
  name: "admin",
  bot: (deps) => [{ phase: "feature", composer: adminFeature({ ...deps, adminIds: deps.config.adminIds }) }],
};
