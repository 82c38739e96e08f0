import type { AddressInfo } from "node:net";
import type { ServerType } from "@hono/node-server";
import type { Api, Bot } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Hono } from "hono";
import { balanceFeature, startFeature } from "../account";
import { adminFeature } from "../admin";
import { allowedUpdates } from "../bot/allowed-updates";
import { createBot } from "../bot/bot";
import { syncCommands } from "../bot/commands";
import type { BotContext } from "../bot/context";
import { setDefaultMenuButton } from "../bot/menu-button";
import { createInFlight, type InFlight } from "../bot/middleware/in-flight";
import { defaultRateLimit } from "../bot/middleware/rate-limit";
import type { PollingHandle } from "../bot/polling";
import { createUpdateJournal, startUpdateRecovery, type UpdateJournal } from "../bot/update-journal";
import { telegramWebhookApp } from "../bot/webhook";
import { broadcastFeature } from "../broadcasts";
import { groupFeatures } from "../groups";
import { fileProxyRoutes } from "../http/file-proxy";
import { healthRoutes } from "../http/health";
import { countFloodWaits } from "../http/instrument";
import { mediaWebhookRoutes } from "../http/media-webhook";
import { rootApp } from "../http/root";
import { createInlineOffers, inlineFeature } from "../inline";
import { messageOf } from "../lib/message-of";
import { type LinkProbeOptions, linkDurationProbe } from "../media/link-duration";
import { type MiniAppDeps, mountMiniApp } from "../miniapp";
import { buyFeature, checkoutFeature, paymentCommands, refundedPaymentFeature } from "../payments";
import { createPreferences, settingsCommands, settingsFeature } from "../preferences";
import { inviteFeature, referralCommands } from "../referrals";
import { cancelFeature, requestCommands, requestFeatures } from "../requests";
import { classifyTelegramError } from "../telegram/telegram-error";
import { languageFromCode } from "../users/language";
import { listen } from "./health-server";
import { every } from "./periodic";
import type { Readiness } from "./readiness";
import type { Services } from "./services";
import type { RuntimeTiming } from "./settings";
import { phase, type StopPhases } from "./stop-phases";

/** The features' commands in the menu (each has a `cmd-<name>` locale key), besides everyone's. */
const menuCommands = [...requestCommands, ...settingsCommands, ...referralCommands, ...paymentCommands];

export interface WebRole {
  bot: Bot<BotContext> | undefined;
  url: string;
  port: number;
  /** settles once Telegram answered and updates flow (or the intake gave up) */
  intake: Promise<void>;
}

/**
 * The web role: Telegram updates (polling or webhook), the media webhook, the
 * file proxy, health and metrics, on one HTTP server.
 */
export interface WebRoleOptions {
  timing: RuntimeTiming;
  botInfo?: UserFromGetMe | undefined;
  readiness: Readiness;
  /** Telegram refused us for good (bad token, another instance polling): an operator must act */
  onFatal(reason: string): void;
  /** more routes on this server (the playground page), mounted at `path` */
  extraRoutes?: { path: string; app: Hono } | undefined;
  /** how dubbing links are read for their length (tests: their own certificate and addresses) */
  linkProbe?: LinkProbeOptions | undefined;
}

export async function startWebRole(
  s: Services,
  options: WebRoleOptions,
  stops: StopPhases,
): Promise<WebRole> {
  const inFlight = createInFlight();
  const journal = createUpdateJournal(s.db, { leaseMs: options.timing.updateLeaseMs, listen: s.listen });
  stops.onStop(phase.connections, () => journal.close());
  const bot = s.config.telegram.token
    ? telegramBot(s, inFlight, journal, options.botInfo, options.linkProbe)
    : undefined;
  const app = await webRoutes(s, bot, journal, options.readiness, options.timing.webhookAnswerMs);
  if (options.extraRoutes) app.route(options.extraRoutes.path, options.extraRoutes.app);
  const server = await listen(app, s.config.http);
  // under polling its updates drained already (phase.updates); this waits for webhook requests
  stops.onStop(phase.intake, () => closeServer(server, inFlight, s, options.timing.drainMs));
  let intake = Promise.resolve();
  if (bot) {
    // Telegram may be unreachable for a while: the server answers (not ready) meanwhile
    options.readiness.set("telegram", false, "starting");
    const stopped = { now: false };
    stops.onStop(phase.intake, async () => {
      stopped.now = true;
    });
    intake = startIntake(bot, journal, s, options, stops, stopped).catch((err: unknown) =>
      options.onFatal(`Telegram intake failed: ${messageOf(err)}`),
    );
  }
  const { port } = server.address() as AddressInfo;
  return { bot, port, url: `http://127.0.0.1:${port}`, intake };
}

function telegramBot(
  s: Services,
  inFlight: InFlight,
  journal: UpdateJournal,
  botInfo: UserFromGetMe | undefined,
  linkProbe: LinkProbeOptions | undefined,
) {
  const { config, logger, db, ledger, users, redis, generations, prices } = s;
  const preferences = createPreferences(db);
  return createBot(
    config.telegram.token!,
    { config, logger, db, users, redis },
    {
      apiRoot: config.telegram.apiRoot,
      apiTransformers: [countFloodWaits(s.metrics)],
      observeUpdate: (type, seconds) => s.metrics.updateSeconds.observe({ type }, seconds),
      inFlight,
      journal,
      menuCommands,
      ...(botInfo ? { botInfo } : {}),
      // every feature, in one list: each runs at its phase (bot.ts), in this order within it
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
          miniAppUrl: config.miniAppUrl,
        }),
        settingsFeature({ preferences }),
        buyFeature({ packs: config.creditPacks, sandbox: config.sandbox, ledger }),
        inviteFeature({ db, config, users }),
        adminFeature({ db, ledger, users, generations, payments: s.payments, adminIds: config.adminIds }),
      ],
    },
  );
}

async function webRoutes(
  s: Services,
  bot: Bot<BotContext> | undefined,
  journal: UpdateJournal,
  readiness: Readiness,
  webhookAnswerMs: number,
): Promise<Hono> {
  const { config, logger, metrics, now } = s;
  const app = rootApp(logger, metrics);
  app.route(
    "/",
    healthRoutes({ db: s.db, redis: s.redis, queues: s.queues.all, metrics, parts: readiness.snapshot }),
  );
  app.route(
    "/",
    mediaWebhookRoutes({
      generations: s.generations,
      queues: s.generationQueues,
      logger,
      pathSecret: config.media.webhookSecret,
      signingSecret: config.signingSecret,
      providerSigningSecret: config.media.signingSecret,
      media: s.media,
      metrics,
      now,
    }),
  );
  const token = config.telegram.token;
  app.route(
    "/",
    fileProxyRoutes({
      signingSecret: config.signingSecret,
      now,
      store: s.store,
      telegram: token && s.api ? { api: s.api, token, apiRoot: config.telegram.apiRoot } : null,
      logger,
    }),
  );
  if (config.miniAppUrl && token && s.api) mountMiniApp(app, miniAppDeps(s, token, s.api, config.miniAppUrl));
  if (config.dashboardPassword) {
    // bull-board and its UI weigh ~10 MB: loaded only where an operator asked for the dashboard
    const { adminDashboardRoutes } = await import("../http/admin-dashboard");
    app.route(
      "/",
      adminDashboardRoutes({
        queues: s.queues.all,
        generations: s.generations,
        password: config.dashboardPassword,
        now,
      }),
    );
  }
  if (bot && config.telegram.mode === "webhook") {
    app.route(
      "/",
      telegramWebhookApp(bot, {
        secretToken: config.telegram.webhookSecret!,
        path: "/telegram",
        journal,
        logger,
        timeoutMs: webhookAnswerMs,
      }),
    );
  }
  return app;
}

/** What the Mini App's API is given: the same stores, prices, limits and Telegram API as the chat. */
function miniAppDeps(s: Services, botToken: string, api: Api, miniAppUrl: string): MiniAppDeps {
  const { config } = s;
  return {
    botToken,
    db: s.db,
    redis: s.redis,
    redisPrefix: config.redis.prefix,
    users: s.users,
    ledger: s.ledger,
    generations: s.generations,
    prices: s.prices,
    packs: config.creditPacks,
    adminIds: config.adminIds,
    sandbox: config.sandbox,
    api,
    store: s.store,
    broadcasts: s.broadcasts.store,
    signer: { publicUrl: config.publicUrl, signingSecret: config.signingSecret, now: s.now },
    storageChatId: config.inlineStorageChatId,
    t: s.t,
    logger: s.logger,
    rateLimit: defaultRateLimit,
    miniAppUrl,
  };
}

async function closeServer(server: ServerType, inFlight: InFlight, s: Services, drainMs: number) {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // updates still being handled (a webhook answered on timeout goes on) finish first
  if (!(await inFlight.idle(drainMs))) s.logger.warn({ updates: inFlight.count }, "updates still in flight");
  if ("closeAllConnections" in server) server.closeAllConnections();
  await closed;
}

/**
 * getMe until Telegram answers, with a log line per failed try and a growing
 * pause; a refusal for good (wrong token) is fatal at once.
 */
async function initBot(
  bot: Bot<BotContext>,
  s: Services,
  options: WebRoleOptions,
  stopped: { now: boolean },
) {
  for (let attempt = 1; !stopped.now; attempt++) {
    try {
      // grammY's own init retries getMe forever, silently: ask once per try here
      if (!bot.isInited()) bot.botInfo = await bot.api.getMe();
      await bot.init();
      return true;
    } catch (err) {
      const failure = classifyTelegramError(err);
      const why = messageOf(err);
      if (failure?.kind === "operator") {
        options.onFatal(`Telegram refused the bot token (${why}): check BOT_TOKEN`);
        return false;
      }
      const waitMs = Math.min(30_000, 500 * 2 ** Math.min(attempt, 6));
      s.logger.warn({ attempt, retryInMs: waitMs, err: why }, "Telegram unreachable: retrying getMe");
      options.readiness.set("telegram", false, `getMe failed ${attempt}×: ${why}`);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
  return false;
}

/** Telegram starts sending: the command menus, then polling or the webhook registration. */
async function startIntake(
  bot: Bot<BotContext>,
  journal: UpdateJournal,
  s: Services,
  options: WebRoleOptions,
  stops: StopPhases,
  stopped: { now: boolean },
) {
  const { config, logger, users } = s;
  const { timing, readiness } = options;
  if (!(await initBot(bot, s, options, stopped))) return;
  await syncCommands(bot, menuCommands, {
    adminIds: config.adminIds,
    // an admin the bot has seen gets the menu in their language: a deploy keeps their /language
    languageOf: async (adminId) => {
      const row = await users.get(adminId);
      return row ? languageFromCode(row.language) : undefined;
    },
    logger,
  }).catch((err: unknown) => logger.warn({ err }, "could not set the command menus"));
  await setDefaultMenuButton(bot.api, config.miniAppUrl).catch((err: unknown) =>
    logger.warn({ err }, "could not set the menu button"),
  );
  // what a crash left unfinished, then whatever a lost lease leaves behind
  const recovery = startUpdateRecovery(bot, journal, logger);
  stops.onStop(phase.updates, () => recovery.stop());
  every("update journal cleanup", s.clock.toReal(timing.journalCleanupEveryMs), () => journal.cleanup(), {
    logger,
    stops,
    rounds: s.rounds,
    atStart: true,
  });
  if (config.telegram.mode === "polling") {
    const { startPolling } = await import("../bot/polling");
    const polling: PollingHandle = await startPolling(bot, journal, {
      timeoutSeconds: timing.pollingTimeoutSeconds,
      drainTimeoutMs: timing.drainMs,
      logger,
      onFatal: options.onFatal,
    });
    stops.onStop(phase.updates, () => polling.stop());
    readiness.watch("telegram", () =>
      polling.isRunning() ? { ok: true, detail: "polling" } : { ok: false, detail: "polling stopped" },
    );
    return;
  }
  await bot.api.setWebhook(`${config.publicUrl}/telegram`, {
    secret_token: config.telegram.webhookSecret!,
    allowed_updates: allowedUpdates,
  });
  readiness.set("telegram", true, "webhook registered");
}
