import type { Api } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Hono } from "hono";
import { createBot } from "../bot/bot";
import { checkFeatureOrder, type Feature } from "../bot/feature";
import type { InFlight } from "../bot/middleware/in-flight";
import type { UpdateJournal } from "../bot/update-journal";
import { account } from "../features/account";
import { admin } from "../features/admin";
import { broadcasts } from "../features/broadcasts";
import { groups } from "../features/groups";
import { inline } from "../features/inline";
import { miniApp } from "../features/miniapp";
import { moderation } from "../features/moderation";
import { payments } from "../features/payments";
import { preferences } from "../features/preferences";
import { privacy } from "../features/privacy";
import { promo } from "../features/promo";
import { referrals } from "../features/referrals";
import { requests } from "../features/requests";
import type { LinkProbeOptions } from "../platform/links/link-duration";
import type { JobHandler } from "../platform/queue/job";
import type { TransientRetry } from "../platform/telegram/api-transformers";
import { countFloodWaits } from "./http/instrument";
import type { Services } from "./services";
import type { RuntimeTiming } from "./settings";

/** What the web role gives every feature: the services, and how links are read. */
export type FeatureDeps = Services & { linkProbe?: LinkProbeOptions | undefined };

/** What the worker role gives every feature besides: the Telegram API it sends with, and the timing. */
export type WorkerFeatureDeps = FeatureDeps & { api: Api; sendApi: Api; timing: RuntimeTiming };

/**
 * Every feature, in order: within a phase, a feature's composers see an update
 * before those of the features after it. Each says what it must come after,
 * checked below at start.
 */
export const features: readonly Feature<FeatureDeps, WorkerFeatureDeps>[] = [
  account,
  groups,
  broadcasts,
  requests,
  inline,
  preferences,
  referrals,
  promo,
  payments,
  admin,
  moderation,
  privacy,
  miniApp,
];
checkFeatureOrder(features);

/** The features' commands in the menu (each has a `cmd-<name>` locale key), besides everyone's. */
export const menuCommands: readonly string[] = features.flatMap((f) => f.commands ?? []);

/** The bot with every feature's composers, at their phases, in the list's order. */
export function telegramBot(
  deps: FeatureDeps,
  inFlight: InFlight,
  journal: UpdateJournal,
  botInfo: UserFromGetMe | undefined,
  telegramRetry: TransientRetry,
) {
  const { config } = deps;
  return createBot(config.telegram.token!, deps, {
    apiRoot: config.telegram.apiRoot,
    apiTransformers: [countFloodWaits(deps.metrics)],
    telegramRetry,
    ...(deps.telegramLink ? { telegramLink: deps.telegramLink } : {}),
    observeUpdate: (type, seconds) => deps.metrics.updateSeconds.observe({ type }, seconds),
    inFlight,
    journal,
    menuCommands,
    helpSections: features.flatMap((f) => (f.help ? [f.help(deps)] : [])),
    ...(botInfo ? { botInfo } : {}),
    features: features.flatMap((f) => f.bot?.(deps) ?? []),
  });
}

/** Every feature's routes, on the web role's server. */
export async function featureRoutes(app: Hono, deps: FeatureDeps): Promise<void> {
  for (const feature of features) await feature.web?.(app, deps);
}

/** Every feature's jobs and periodic work, for the worker role. */
export function featureWork(deps: WorkerFeatureDeps) {
  const jobs: JobHandler[] = features.flatMap((f) => f.jobs?.(deps) ?? []);
  const periodic = features.flatMap((f) => f.periodic?.(deps) ?? []);
  return { jobs, periodic };
}
