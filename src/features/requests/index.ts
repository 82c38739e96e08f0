import type { BotDeps } from "../../bot/context";
import type { Feature } from "../../bot/feature";
import type { DeliveryRecords } from "../../domain/generations/delivery-records";
import { dubInputRules } from "../../domain/generations/inputs";
import type { GenerationTransitions } from "../../domain/generations/transitions";
import { type LinkProbeOptions, linkDurationProbe } from "../../platform/links/link-duration";
import { linkKindProbe } from "../../platform/links/link-kind";
import type { PlanSubscriptions } from "../payments";
import { createPreferences } from "../preferences";
import { cancelFeature } from "./cancel";
import { type RequestFeatureDeps, requestCommands, requestFeatures } from "./feature";
import { requestsHelp } from "./help";
import { sentOffersFeature } from "./offers-without-command";
import { createSentStore } from "./sent-store";

/**
 * Requests: the guided conversations (/image, /edit, /video, /dub), the buttons
 * under results, /history and /cancel. Code outside this folder imports it from here only.
 */
export { cancelFeature } from "./cancel";
export { captionCommand } from "./feature";

type RequestsDeps = Pick<BotDeps, "config" | "db" | "redis"> &
  Pick<RequestFeatureDeps, "users" | "ledger" | "prices"> & {
    generations: RequestFeatureDeps["generations"] &
      Pick<GenerationTransitions, "cancel"> &
      Pick<DeliveryRecords, "setStatusShown">;
    /** how links are read (tests point it at a stand-in) */
    linkProbe?: LinkProbeOptions | undefined;
    /** the plans: a user's discount on the prices shown */
    subscriptions: Pick<PlanSubscriptions, "discountOf">;
  };

/**
 * /cancel answers first (it leaves a conversation); the conversations come after the
 * group guard and the broadcast's conversation; what a chat sends without a command
 * is offered last, once nothing else took it.
 */
export const requests: Feature<RequestsDeps> = {
  name: "requests",
  after: ["groups", "broadcasts"],
  commands: requestCommands,
  help: (deps) => requestsHelp({ prices: deps.prices, dubRules: dubInputRules(deps.config) }),
  bot: (deps) => {
    const preferences = createPreferences(deps.db);
    const dubRules = dubInputRules(deps.config);
    return [
      { phase: "first", composer: cancelFeature({ generations: deps.generations }) },
      ...requestFeatures({
        ...deps,
        discountOf: deps.subscriptions.discountOf,
        preferences,
        linkDuration: linkDurationProbe(deps.linkProbe),
        dubRules,
        miniAppUrl: deps.config.miniAppUrl,
      }).map((composer) => ({ phase: "feature" as const, composer })),
      {
        phase: "last",
        composer: sentOffersFeature({
          sent: createSentStore({ redis: deps.redis, prefix: deps.config.redis.prefix }),
          prices: deps.prices,
          discountOf: deps.subscriptions.discountOf,
          ledger: deps.ledger,
          preferences,
          dubRules,
          linkKind: linkKindProbe(deps.linkProbe),
        }),
      },
    ];
  },
};
