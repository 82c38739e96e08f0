import { join } from "node:path";
import { Api } from "grammy";
import { Redis } from "ioredis";
import { createLedger } from "../domain/credits/ledger";
import { creditsHeld } from "../domain/credits/totals";
import { lifecycleReporter } from "../domain/generations/lifecycle";
import { generationQueues } from "../domain/generations/queues";
import { createGenerations, type Generations } from "../domain/generations/service";
import { stageQueues } from "../domain/generations/stages";
import { createSyncHints } from "../domain/generations/sync/sync-hints";
import type { Generation } from "../domain/generations/types";
import { knownCosts, pricesBelowCost } from "../domain/pricing/cost-check";
import { createPrices, loadPriceTable } from "../domain/pricing/prices";
import { createUsers } from "../domain/users/users";
import { broadcastQueue, createBroadcastStore } from "../features/broadcasts";
import { createPromptRules, createReportStore } from "../features/moderation";
import { createPaymentStore, createPlanSubscriptions, type PaymentStore } from "../features/payments";
import { createErasure } from "../features/privacy";
import { referralHooks, referralNotifier } from "../features/referrals";
import type { Config } from "../platform/config/config";
import { type Database, openDatabase } from "../platform/db/client";
import { migrateDatabase } from "../platform/db/migrate";
import { translateFor } from "../platform/i18n/i18n";
import { languageFromCode } from "../platform/i18n/language";
import type { Clock } from "../platform/lib/clock";
import type { Logger } from "../platform/lib/logger";
import { outageLog } from "../platform/lib/outage-log";
import type { MediaClient } from "../platform/media-service/client";
import { createMetrics, type Metrics } from "../platform/metrics/metrics";
import { queueDepths, queueLags } from "../platform/queue/queue-figures";
import { createQueues, type Queues } from "../platform/queue/queues";
import { createMediaStore } from "../platform/storage/media-store";
import { type FilePayload, signedFileUrl, signGid } from "../platform/storage/signed-tokens";
import type { MediaStore } from "../platform/storage/stored-file";
import {
  boundedAutoRetry,
  loggedPause,
  readableRefusals,
  retryTransient,
  type TransientRetry,
} from "../platform/telegram/api-transformers";
import { type AdminAlert, adminAlerts } from "../platform/telegram/operator-alert";
import { createTelegramLink } from "../platform/telegram/telegram-link";
import { type AuditRecord, auditRecord } from "./audit-record";
import { countFloodWaits, instrumentMediaClient } from "./http/instrument";
import { connectMediaService } from "./media-service";
import { roundLeases } from "./round-lease";
import { broadcastCallTimeoutSeconds, type RuntimePolicy, type RuntimeTiming } from "./settings";
import { phase, type StopPhases } from "./stop-phases";

export interface ServiceOptions {
  clock: Clock;
  logger: Logger;
  policy: RuntimePolicy;
  timing: RuntimeTiming;
  /** a media client of the caller's (tests); otherwise config decides */
  media?: MediaClient | undefined;
  skipMigrations?: boolean | undefined;
}

/** What both roles share: storage, money, queues, the media service and the Telegram API. */
export async function openServices(config: Config, options: ServiceOptions, stops: StopPhases) {
  const { clock, logger, policy } = options;
  const database = await openDatabase(config.database);
  stops.onStop(phase.database, () => database.close());
  if (!options.skipMigrations) await migrateDatabase(database);
  const { db } = database;

  const redis = new Redis(config.redis.url, { maxRetriesPerRequest: 3, lazyConnect: false });
  redis.on("error", outageLog(logger, "Redis"));
  stops.onStop(phase.connections, () => redis.quit());

  const ledger = createLedger(db);
  const prices = createPrices(loadPriceTable(config.pricesFile));
  const queues = createQueues(config.redis, stageQueues);
  for (const q of queues.all) q.on("error", outageLog(logger, `queue ${q.name}`));
  stops.onStop(phase.connections, () => queues.close());
  const hints = createSyncHints(redis, config.redis.prefix);
  const gq = generationQueues(queues, clock, hints);
  const store = await openMediaStore(config);
  const broadcasts = createBroadcastStore(db);
  const audits = auditRecord(redis, config.redis.prefix);
  // the gauges read generations at scrape time; generations report to the counters
  let generations: Generations | undefined;
  const metrics = serviceMetrics({ db, queues, broadcasts, audits }, () => generations);
  const telegram = config.telegram.token
    ? telegramApi(config, metrics, options.timing.telegramRetry, logger)
    : undefined;
  const api = telegram?.api;
  const users = createUsers(db, ledger, {
    welcomeCredits: config.welcomeCredits,
    onGranted: (credits) => metrics.credits.inc({ movement: "granted" }, credits),
  });
  const alert = operatorAlert(api, redis, config, options, async (id) => (await users.get(id))?.language);
  const subscriptions = createPlanSubscriptions(db, config.plans);
  const promptRules = createPromptRules({ db, settingRules: config.refusedPrompts });
  generations = createGenerations({
    db,
    credits: ledger,
    prices,
    discountOf: subscriptions.discountOf,
    screenPrompt: async (userId, operation, prompt) => {
      const rule = await promptRules.screen(userId, operation, prompt);
      if (rule !== undefined) metrics.promptsRefused.inc({ operation });
      return rule;
    },
    queues: gq,
    clock,
    logger,
    observe: lifecycleReporter(logger, metrics, alert),
    onOrphan: (taskId, credits) => {
      if ((credits ?? 0) > 0) metrics.serviceCredits.inc({ kind: "orphan" }, credits ?? 0);
      void alert("orphan", { task: taskId, credits: credits ?? "?" }).catch((err: unknown) =>
        logger.warn({ err }, "alert not sent"),
      );
    },
  });
  const connected = options.media
    ? { media: options.media, simulator: undefined }
    : await connectMediaService(config, { clock, logger, policy }, stops);
  const media = instrumentMediaClient(connected.media, metrics);
  const simulated = config.sandbox || connected.simulator !== undefined;
  const belowCost = pricesBelowCost(prices.table, knownCosts(prices.table, simulated));
  if (belowCost.length > 0) {
    logger.warn(
      { below: belowCost.map((b) => `${b.choice}: ${b.price} < ${b.cost}`) },
      "prices below the service's cost: each such request loses credits (see docs/configuration.md, Prices)",
    );
  }

  const erasure = createErasure({ db, redis, prefix: config.redis.prefix, store, generations });

  const now = () => clock.now();
  const referralBonus = referralHooks({
    ledger,
    bonus: config.referralBonus,
    notify: referralNotifier({ api, users, t: translateFor, logger }),
  });

  return {
    /** LISTEN/NOTIFY where the database has it (Postgres): cross-process wake-ups */
    listen: database.listen,
    config,
    clock,
    logger,
    db,
    redis,
    ledger,
    prices,
    /** prices below the service's known cost, for /stats' warning */
    belowCost,
    users,
    queues,
    hints,
    generationQueues: gq,
    generations,
    broadcasts: { store: broadcasts, queue: broadcastQueue(queues, clock) },
    /** Stars payments and the credits they move (referral hooks are given here) */
    payments: countSales(referralBonus.withNotices(createPaymentStore(db, ledger, referralBonus)), metrics),
    /** monthly plans: whose runs, until when, whether it renews, and its discount */
    subscriptions,
    /** the refused words and patterns, and the refusals they made */
    promptRules,
    /** "Delete my data" (/privacy and the Mini App) */
    erasure,
    /** results reported in groups, and what the admins did about them */
    reports: createReportStore(db),
    /** the last ledger audit's result, for every process's /metrics */
    audits,
    store,
    metrics,
    media,
    simulator: connected.simulator,
    api,
    /** whether the Bot API answers, as `api`'s calls and a probe say (what a delivery waits on) */
    telegramLink: telegram?.link,
    /** for broadcast copies: a 429 comes back at once, to pause every worker's limiter */
    sendApi: config.telegram.token ? sendApi(config, metrics) : undefined,
    alert,
    /** periodic rounds: one process at a time across every process of the bot */
    rounds: roundLeases({ redis, prefix: config.redis.prefix, leaseMs: options.timing.roundLeaseMs, logger }),
    t: translateFor,
    now,
    ...signedLinks(config, now, policy),
  };
}

/** The metrics; its gauges ask the generations (once they exist), the queues and Postgres at scrape time. */
function serviceMetrics(
  from: {
    db: Database;
    queues: Queues;
    broadcasts: Pick<ReturnType<typeof createBroadcastStore>, "unfinished" | "counts">;
    audits: AuditRecord;
  },
  generations: () => Generations | undefined,
): Metrics {
  return createMetrics({
    generationsByState: async () => generations()?.countByState() ?? {},
    queueDepths: () => queueDepths(from.queues.all),
    queueLags: () => queueLags(from.queues.all),
    creditsHeld: () => creditsHeld(from.db),
    broadcastRecipients: async () => {
      const out: Record<string, number> = {};
      for (const b of await from.broadcasts.unfinished()) {
        const { total: _total, ...byState } = await from.broadcasts.counts(b.id);
        for (const [state, n] of Object.entries(byState)) out[state] = (out[state] ?? 0) + n;
      }
      return out;
    },
    lastAudit: () => from.audits.last(),
  });
}

/** Credits sold, counted once the payment's transaction committed (a replay grants nothing). */
function countSales(store: PaymentStore, metrics: Metrics): PaymentStore {
  return {
    ...store,
    async recordPaid(input) {
      const result = await store.recordPaid(input);
      if (result.applied) metrics.credits.inc({ movement: "sold" }, result.payment.credits);
      return result;
    },
  };
}

/** Alerts to the admins in their language; without a Telegram token they go nowhere. */
function operatorAlert(
  api: Api | undefined,
  redis: Redis,
  config: Config,
  options: ServiceOptions,
  languageOf: (adminId: number) => Promise<string | undefined>,
): AdminAlert {
  if (!api) return async () => undefined;
  return adminAlerts({
    api,
    redis,
    prefix: config.redis.prefix,
    adminIds: config.adminIds,
    clock: options.clock,
    logger: options.logger,
    languageOf: async (id) => languageFromCode(await languageOf(id)),
    windowMs: (kind) =>
      kind === "service-refused" ? options.timing.operatorPauseMs : options.timing.alertWindowMs,
  });
}

/**
 * The workers' Telegram API: 429s counted, refusals in the Bot API's shape,
 * a call that failed in passing tried again, beneath a bounded auto-retry.
 */
function telegramApi(config: Config, metrics: Metrics, retry: TransientRetry, logger: Logger) {
  const api = new Api(config.telegram.token!, { apiRoot: config.telegram.apiRoot });
  // closest to the network first, so it sees every raw answer
  const link = createTelegramLink({ probe: () => api.getMe(), logger });
  api.config.use(link.transformer);
  api.config.use(countFloodWaits(metrics));
  api.config.use(readableRefusals());
  api.config.use(retryTransient(retry, loggedPause(logger)));
  api.config.use(boundedAutoRetry());
  return { api, link };
}

/**
 * The Telegram API without automatic retries (a copy that got no clear answer
 * may have been made), 429s counted, refusals in the Bot API's shape, each
 * call bounded in time.
 */
function sendApi(config: Config, metrics: Metrics): Api {
  const api = new Api(config.telegram.token!, {
    apiRoot: config.telegram.apiRoot,
    timeoutSeconds: broadcastCallTimeoutSeconds,
  });
  api.config.use(countFloodWaits(metrics));
  api.config.use(readableRefusals());
  return api;
}

/**
 * The media store MEDIA_STORE names: a directory under DATA_DIR, or a bucket
 * (the AWS SDK is loaded only then). With a bucket, DATA_DIR holds only this
 * process's scratch files for ffmpeg: nothing another process needs to see.
 */
async function openMediaStore(config: Config): Promise<MediaStore> {
  if (!config.bucket) return createMediaStore(join(config.dataDir, "media"));
  const { createBucketStore } = await import("../platform/storage/bucket-store");
  const { sweepScratch } = await import("../platform/storage/scratch");
  const scratch = join(config.dataDir, "scratch");
  await sweepScratch(scratch);
  return createBucketStore(config.bucket, scratch);
}

/** Our signed links: what a request sent to the service points back to, and links to large results. */
export function signedLinks(config: Config, now: () => number, policy: RuntimePolicy) {
  const link = (payload: FilePayload) => signedFileUrl(config.publicUrl, config.signingSecret, payload);
  const inSeconds = (seconds: number) => Math.floor(now() / 1000) + seconds;
  return {
    /** our signed link to a user's Telegram upload, for the service to download */
    telegramFileUrl: (fileId: string) => link({ k: "tg", f: fileId, e: inSeconds(policy.inputLinkSeconds) }),
    /** where the service downloads the input we kept for a generation (a dubbing link's file) */
    keptInputUrl: (generationId: string) =>
      link({ k: "in", g: generationId, e: inSeconds(policy.inputLinkSeconds) }),
    /** where the user downloads a result too big for Telegram, for `days` (as long as we keep our copy) */
    outputUrl: (path: string, days: number) => link({ k: "out", p: path, e: inSeconds(days * 24 * 3600) }),
    /** what each task carries back to us in its webhook: the generation id, signed */
    metadataFor: (g: Generation) => ({
      gid: g.id,
      sig: signGid(config.signingSecret, g.id),
      user: String(g.userId),
      ...(g.chatId !== null ? { chat: String(g.chatId) } : {}),
    }),
  };
}

export type Services = Awaited<ReturnType<typeof openServices>>;
