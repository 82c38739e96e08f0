import type { UserFromGetMe } from "grammy/types";
import { balanceFeature, startFeature } from "../account";
import { adminFeature } from "../admin";
import { createBot } from "../bot/bot";
import type { InFlight } from "../bot/middleware/in-flight";
import type { UpdateJournal } from "../bot/update-journal";
import { broadcastFeature } from "../broadcasts";
import { dubInputRules } from "../generations/inputs";
import { groupFeatures } from "../groups";
import { countFloodWaits } from "../http/instrument";
import { createInlineOffers, inlineFeature, inlineHelp } from "../inline";
import { type LinkProbeOptions, linkDurationProbe } from "../media/link-duration";
import { buyFeature, checkoutFeature, paymentCommands, refundedPaymentFeature } from "../payments";
import { createPreferences, settingsCommands, settingsFeature } from "../preferences";
import { inviteFeature, referralCommands } from "../referrals";
import {
  cancelFeature,
  createSentStore,
  requestCommands,
  requestFeatures,
  requestsHelp,
  sentOffersFeature,
} from "../requests";
import type { TransientRetry } from "../telegram/api-transformers";
import type { Services } from "./services";

/** The features' commands in the menu (each has a `cmd-<name>` locale key), besides everyone's. */
export const menuCommands = [
  ...requestCommands,
  ...settingsCommands,
  ...referralCommands,
  ...paymentCommands,
];

/**
 * The bot with every feature, in one ordered list: each runs at its phase
 * (bot/bot.ts), in this order within it.
 */
export function telegramBot(
  s: Services,
  inFlight: InFlight,
  journal: UpdateJournal,
  botInfo: UserFromGetMe | undefined,
  linkProbe: LinkProbeOptions | undefined,
  telegramRetry: TransientRetry,
) {
  const { config, logger, db, ledger, users, redis, generations, prices } = s;
  const preferences = createPreferences(db);
  return createBot(
    config.telegram.token!,
    { config, logger, db, users, redis },
    {
      apiRoot: config.telegram.apiRoot,
      apiTransformers: [countFloodWaits(s.metrics)],
      telegramRetry,
      observeUpdate: (type, seconds) => s.metrics.updateSeconds.observe({ type }, seconds),
      inFlight,
      journal,
      menuCommands,
      helpSections: [requestsHelp({ prices, dubRules: dubInputRules(config) }), inlineHelp],
      ...(botInfo ? { botInfo } : {}),
      features: [
        {
          phase: "checkout",
          composer: checkoutFeature({
            packs: config.creditPacks,
            payments: s.payments,
            sandbox: config.sandbox,
            users,
            ledger,
          }),
        },
        {
          phase: "checkout",
          composer: refundedPaymentFeature({ payments: s.payments, test: s.config.sandbox }),
        },
        // always available: before the other features and their conversations (/cancel leaves one)
        startFeature({ users, ledger, db, config }),
        balanceFeature({ ledger, db }),
        cancelFeature({ generations }),
        // first of the others: a message sent via the bot (a placed inline offer) is nobody's answer to a conversation
        inlineFeature({
          prices,
          preferences,
          generations,
          users,
          inlineStorageChatId: config.inlineStorageChatId,
          offers: createInlineOffers({ db, redis, prefix: config.redis.prefix }),
        }),
        // before anything that starts a request in a group: the group admins' settings and their guard
        ...groupFeatures({ db, generations, users }),
        // the broadcast conversation before the others: requestFeatures answers every other `cv:` press as stale
        broadcastFeature({ db, ...s.broadcasts, adminIds: config.adminIds, logger, users }),
        ...requestFeatures({
          db,
          users,
          ledger,
          generations,
          prices,
          preferences,
          linkDuration: linkDurationProbe(linkProbe),
          dubRules: dubInputRules(config),
          miniAppUrl: config.miniAppUrl,
        }),
        settingsFeature({ preferences }),
        buyFeature({ packs: config.creditPacks, sandbox: config.sandbox, ledger }),
        inviteFeature({ db, config, users }),
        adminFeature({
          db,
          ledger,
          users,
          generations,
          payments: s.payments,
          adminIds: config.adminIds,
          belowCost: s.belowCost,
        }),
        // last: what a private chat sends without a command, once no feature and no conversation took it
        sentOffersFeature({
          sent: createSentStore({ redis, prefix: config.redis.prefix }),
          prices,
          ledger,
          preferences,
          dubRules: dubInputRules(config),
        }),
      ],
    },
  );
}
