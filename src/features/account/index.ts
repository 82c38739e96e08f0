import type { BotDeps } from "../../bot/context";
import type { Feature } from "../../bot/feature";
import type { Ledger } from "../../domain/credits/ledger";
import type { Metrics } from "../../platform/metrics/metrics";
import type { PlanSubscriptions } from "../payments";
import { balanceFeature } from "./balance";
import { startFeature } from "./start";

/** A person's account: /start (the welcome credits, an invite's code, a promo link's) and /balance. Code outside this folder imports it from here only. */
export { balanceFeature } from "./balance";
export { startFeature } from "./start";

/** Always available, before every other feature and conversation (/start, /balance inside one). */
export const account: Feature<
  Pick<BotDeps, "users" | "db" | "config"> & {
    ledger: Pick<Ledger, "account" | "grant" | "moved">;
    metrics?: Pick<Metrics, "credits">;
    subscriptions: Pick<PlanSubscriptions, "active">;
  }
> = {
  name: "account",
  bot: (deps) => [
    { phase: "first", composer: startFeature(deps) },
    { phase: "first", composer: balanceFeature(deps) },
  ],
};
