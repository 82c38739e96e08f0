import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type ServerType, serve } from "@hono/node-server";
import { Api, type Bot } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import { Hono } from "hono";
import { Redis } from "ioredis";
import { createBot } from "./bot/bot";
import { syncCommands } from "./bot/commands";
import type { BotContext } from "./bot/context";
import { conversationCommands, conversationFeatures } from "./bot/conversations";
import { translate } from "./bot/i18n";
import { createInFlight } from "./bot/middleware/in-flight";
import { allowedUpdates, type PollingHandle, startPolling } from "./bot/polling";
import { boundedAutoRetry } from "./bot/transformers";
import { telegramWebhookApp } from "./bot/webhook";
import type { Config } from "./config";
import { createLedger } from "./credits/ledger";
import { type DatabaseHandle, openDatabase } from "./db/client";
import { migrateDatabase } from "./db/migrate";
import { showStatus } from "./delivery/status-message";
import type { Translate } from "./delivery/telegram-delivery";
import type { InputRef } from "./generations/params";
import { reconcile, startReconciler } from "./generations/reconciler";
import { createGenerations, type Generation } from "./generations/service";
import { fileProxyRoutes } from "./http/file-proxy";
import { healthRoutes } from "./http/health";
import { countFloodWaits, instrumentMediaClient } from "./http/instrument";
import { mediaWebhookRoutes } from "./http/media-webhook";
import { createMetrics } from "./http/metrics";
import { type Clock, systemClock } from "./lib/clock";
import { createLogger, type Logger } from "./lib/logger";
import { pollIntervalMs } from "./media/catalog";
import { createMediaClient, type MediaClient } from "./media/client";
import { createPrices, loadPriceTable } from "./pricing/prices";
import { createQueues, generationQueues } from "./queue/queues";
import { createSyncHints } from "./queue/sync-hints";
import { startWorkers, type WorkerSet } from "./queue/workers";
import { type Simulator, startSimulator } from "./simulator/server";
import { createMediaStore } from "./storage/media-store";
import { signFileToken, signGid } from "./storage/signed-tokens";
import { languageFromCode } from "./users/language";
import { createUsers } from "./users/users";

export interface RuntimeOverrides {
  clock?: Clock;
  logger?: Logger;
  /** a media client of the caller's (tests); otherwise config decides */
  media?: MediaClient;
  botInfo?: UserFromGetMe;
  /** intervals and grace periods, in clock ms */
  timing?: Partial<RuntimeTiming>;
  /** skip migrations (the caller already ran them) */
  skipMigrations?: boolean;
}

export interface RuntimeTiming {
  reconcileEveryMs: number;
  adoptionGraceMs: number;
  operatorPauseMs: number;
  maxPollIntervalMs: number;
  pollingTimeoutSeconds: number;
  /** real ms; how soon the jobs of a killed worker are taken up again */
  jobLockMs: number;
  /** real ms the workers get to finish their jobs at shutdown before they are handed back */
  drainMs: number;
}

const defaultTiming: RuntimeTiming = {
  reconcileEveryMs: 60_000,
  adoptionGraceMs: 120_000,
  operatorPauseMs: 300_000,
  maxPollIntervalMs: 60_000,
  pollingTimeoutSeconds: 30,
  jobLockMs: 30_000,
  drainMs: 20_000,
};

/** Values that must never be written to a log. */
export function secretsOf(config: Config): Array<string | undefined> {
  return [
    config.telegram.token,
    config.telegram.token?.split(":")[1],
    config.media.apiKey,
    config.signingSecret,
    config.media.webhookSecret,
    config.media.signingSecret,
    config.telegram.webhookSecret,
  ];
}

/** The media webhook path the operator registers with the service. */
export function mediaWebhookPath(config: Config): string {
  return `/webhooks/media/${config.media.webhookSecret}`;
}

/**
 * The composition root: one process with the roles its config asks for.
 * `web` serves Telegram updates, the media webhook, the file proxy, health and
 * metrics; `worker` runs the queues and the reconciler; `all` does both.
 */
export async function startRuntime(config: Config, overrides: RuntimeOverrides = {}) {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger(config.logLevel, undefined, secretsOf(config));
  const timing = { ...defaultTiming, ...overrides.timing };
  const web = config.role !== "worker";
  const work = config.role !== "web";
  // Shutdown runs in phases, whatever order things were started in: first stop
  // taking updates and webhooks, then let the workers finish (bounded), then close
  // the connections they used.
  const phase = { intake: 0, reconciler: 1, workers: 2, services: 3, connections: 4, database: 5 } as const;
  const stops: Array<{ phase: number; stop: () => Promise<unknown> }> = [];
  const onStop = (p: number, stop: () => Promise<unknown>) => stops.push({ phase: p, stop });
  const stopAll = async () => {
    const ordered = stops.splice(0).sort((x, y) => x.phase - y.phase);
    for (const { stop } of ordered) await stop().catch((err: unknown) => logger.warn({ err }, "stop failed"));
  };

  try {
    const database: DatabaseHandle = openDatabase(config.database);
    onStop(phase.database, () => database.close());
    if (!overrides.skipMigrations) await migrateDatabase(database);
    const { db } = database;

    const redis = new Redis(config.redis.url, { maxRetriesPerRequest: 3, lazyConnect: false });
    onStop(phase.connections, () => redis.quit());

    const ledger = createLedger(db);
    const prices = createPrices(loadPriceTable(config.pricesFile));
    const users = createUsers(db, ledger, { welcomeCredits: config.welcomeCredits });
    const queues = createQueues(config.redis);
    onStop(phase.connections, () => queues.close());
    const hints = createSyncHints(redis, config.redis.prefix);
    const gq = generationQueues(queues, clock, hints);
    const generations = createGenerations({ db, credits: ledger, prices, queues: gq, clock, logger });
    const store = createMediaStore(join(config.dataDir, "media"));
    const metrics = createMetrics({
      generationsByState: () => generations.countByState(),
      queueDepths: async () => {
        const out: Record<string, Record<string, number>> = {};
        for (const q of queues.all) out[q.name] = await q.getJobCounts("wait", "active", "delayed", "failed");
        return out;
      },
    });

    let simulator: Simulator | undefined;
    let media: MediaClient | undefined = overrides.media;
    if (!media) {
      if (config.media.useSimulator) {
        simulator = await startSimulator({
          apiKey: "sandbox-key",
          clock,
          webhook: { url: `${config.publicUrl}${mediaWebhookPath(config)}` },
          logger,
        });
        onStop(phase.services, () => simulator!.close());
        logger.warn({ url: simulator.url }, "SANDBOX: using the built-in media service simulator");
        media = createMediaClient({ baseUrl: simulator.url, apiKey: simulator.apiKey });
      } else {
        media = createMediaClient({
          baseUrl: config.media.baseUrl!,
          apiKey: config.media.apiKey!,
          // a create includes the service downloading up to 100 MB of dubbing source
          timeoutMs: 120_000,
          logger,
        });
      }
    }

    media = instrumentMediaClient(media, metrics);

    const token = config.telegram.token;
    const t: Translate = (language, key, vars) => translate(languageFromCode(language), key, vars);
    let bot: Bot<BotContext> | undefined;
    let api: Api | undefined;
    if (token) {
      api = new Api(token, { apiRoot: config.telegram.apiRoot });
      api.config.use(countFloodWaits(metrics));
      api.config.use(boundedAutoRetry());
    }

    const now = () => clock.now();
    const inputUrl = (ref: InputRef) =>
      ref.kind === "url"
        ? ref.url
        : `${config.publicUrl}/files/${signFileToken(config.signingSecret, { k: "tg", f: ref.fileId, e: Math.floor(now() / 1000) + 3600 })}`;
    const metadataFor = (g: Generation) => ({
      gid: g.id,
      sig: signGid(config.signingSecret, g.id),
      user: String(g.userId),
      ...(g.chatId !== null ? { chat: String(g.chatId) } : {}),
    });

    let server: ServerType | undefined;
    const inFlight = createInFlight();
    let polling: PollingHandle | undefined;
    if (web) {
      const app = new Hono();
      app.route("/", healthRoutes({ db, redis, queues: queues.all, metrics }));
      app.route(
        "/",
        mediaWebhookRoutes({
          generations,
          queues: gq,
          logger,
          pathSecret: config.media.webhookSecret,
          signingSecret: config.signingSecret,
          providerSigningSecret: config.media.signingSecret,
          metrics,
          now,
        }),
      );
      app.route(
        "/",
        fileProxyRoutes({
          signingSecret: config.signingSecret,
          now,
          store,
          telegram: token && api ? { api, token, apiRoot: config.telegram.apiRoot } : null,
          logger,
        }),
      );
      if (token) {
        bot = createBot(
          token,
          { config, logger, db, ledger, users, redis, generations },
          {
            apiRoot: config.telegram.apiRoot,
            apiTransformers: [countFloodWaits(metrics)],
            inFlight,
            ...(overrides.botInfo ? { botInfo: overrides.botInfo } : {}),
            features: conversationFeatures({ db, generations, prices }),
          },
        );
        if (config.telegram.mode === "webhook") {
          app.route(
            "/",
            telegramWebhookApp(bot, {
              secretToken: config.telegram.webhookSecret!,
              path: "/telegram",
              logger,
            }),
          );
        }
      }
      server = await new Promise<ServerType>((resolve, reject) => {
        const s = serve({ fetch: app.fetch, port: config.http.port, hostname: config.http.host }, () =>
          resolve(s),
        );
        s.once("error", reject);
      });
      onStop(phase.intake, async () => {
        const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
        // updates still being handled (a webhook answered on timeout goes on) finish first
        if (!(await inFlight.idle(timing.drainMs)))
          logger.warn({ updates: inFlight.count }, "updates still in flight");
        if ("closeAllConnections" in server!) server!.closeAllConnections();
        await closed;
      });
      if (bot) {
        await bot.init();
        await syncCommands(bot, conversationCommands).catch((err: unknown) =>
          logger.warn({ err }, "could not set the command menus"),
        );
        if (config.telegram.mode === "polling") {
          polling = await startPolling(bot, { timeoutSeconds: timing.pollingTimeoutSeconds });
          onStop(phase.intake, () => polling!.stop());
        } else {
          await bot.api.setWebhook(`${config.publicUrl}/telegram`, {
            secret_token: config.telegram.webhookSecret!,
            allowed_updates: allowedUpdates,
          });
        }
      }
    }

    let workerSet: WorkerSet | undefined;
    if (work) {
      if (!api) throw new Error("the worker role needs BOT_TOKEN to deliver results");
      const workerApi = api;
      workerSet = startWorkers({
        redis: config.redis,
        clock,
        logger,
        operatorPauseMs: timing.operatorPauseMs,
        jobLockMs: timing.jobLockMs,
        hints,
        submit: {
          generations,
          media,
          clock,
          logger,
          metadataFor,
          inputUrl,
          adoptionGraceMs: timing.adoptionGraceMs,
          maxSubmissions: 6,
          firstPollDelayMs: (g) => pollIntervalMs(g.operation),
          enqueueSync: (id, delayMs) => gq.sync(id, { delayMs }),
          enqueueDeliver: (id) => gq.deliver(id),
          onAccepted: (g) => showStatus(workerApi, generations, g, t(g.language, "gen-generating")),
          alertOperator: async (problem) => {
            const key = `${config.redis.prefix}:alert:operator`;
            const first = await redis.set(key, "1", "PX", clock.toReal(timing.operatorPauseMs), "NX");
            if (first !== "OK") return;
            logger.error({ problem }, "media service refused us: submitting paused");
            for (const admin of config.adminIds) {
              await workerApi
                .sendMessage(admin, `⚠️ ${problem}\nSubmitting is paused and retried automatically.`)
                .catch(() => undefined);
            }
          },
        },
        sync: {
          generations,
          media,
          clock,
          logger,
          maxPollIntervalMs: timing.maxPollIntervalMs,
          enqueueDeliver: (id) => gq.deliver(id),
          observeCompletionLag: (seconds) => metrics.webhookLag.observe(seconds),
        },
        deliver: {
          api: workerApi,
          generations,
          logger,
          t,
          store,
          publicUrl: config.publicUrl,
          signingSecret: config.signingSecret,
          now,
          maxDeliveryAttempts: 12,
          markBlocked: async (userId) => {
            await users.markBlocked(userId);
          },
        },
        onOutcome: (queue, _gid, outcome) => metrics.jobOutcomes.inc({ queue, outcome }),
      });
      onStop(phase.workers, () => workerSet!.drain(timing.drainMs));
      const reconciler = startReconciler(
        () => reconcile(generations, gq, logger),
        clock.toReal(timing.reconcileEveryMs),
        logger,
      );
      onStop(phase.reconciler, async () => reconciler.stop());
    }

    const address = server ? (server.address() as AddressInfo) : undefined;
    return {
      config,
      db,
      ledger,
      users,
      generations,
      queues,
      media,
      simulator,
      bot,
      metrics,
      store,
      workers: workerSet,
      port: address?.port,
      url: address ? `http://127.0.0.1:${address.port}` : undefined,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
export type Runtime = Awaited<ReturnType<typeof startRuntime>>;
