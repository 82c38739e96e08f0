import type { BotDeps } from "../../bot/context";
import type { Feature } from "../../bot/feature";
import type { PlanSubscriptions } from "../payments";
import { createPreferences } from "../preferences";
import { type InlineFeatureDeps, inlineFeature } from "./feature";
import { inlineHelp } from "./help";
import { createInlineOffers } from "./offers";

/** Inline mode: its composer and the store of offers placed in chats. Code outside this folder imports it from here only. */

/** First of the features: a message sent via the bot (a placed offer) is nobody's answer to a conversation. */
export const inline: Feature<
  Pick<BotDeps, "config" | "db" | "redis"> &
    Pick<InlineFeatureDeps, "prices" | "generations" | "users"> & {
      subscriptions: Pick<PlanSubscriptions, "discountOf">;
    }
> = {
  name: "inline",
  help: () => inlineHelp,
  bot: (deps) => [
    {
      phase: "first",
      composer: inlineFeature({
        ...deps,
        discountOf: deps.subscriptions.discountOf,
        preferences: createPreferences(deps.db),
        inlineStorageChatId: deps.config.inlineStorageChatId,
        offers: createInlineOffers({ db: deps.db, redis: deps.redis, prefix: deps.config.redis.prefix }),
      }),
    },
  ],
};
