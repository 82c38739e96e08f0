import type { AddressInfo } from "node:net";
import type { ServerType } from "@hono/node-server";
import type { Bot } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Hono } from "hono";
import type { BotContext } from "../bot/context";
import { createInFlight, type InFlight } from "../bot/middleware/in-flight";
import { createUpdateJournal, type UpdateJournal } from "../bot/update-journal";
import { telegramWebhookApp } from "../bot/webhook";
import { messageOf } from "../platform/lib/message-of";
import type { LinkProbeOptions } from "../platform/links/link-duration";
import { featureRoutes, telegramBot } from "./features";
import { listen } from "./health-server";
import { fileProxyRoutes } from "./http/file-proxy";
import { healthRoutes } from "./http/health";
import { mediaWebhookRoutes } from "./http/media-webhook";
import { rootApp } from "./http/root";
import type { Readiness } from "./readiness";
import type { Services } from "./services";
import { phase, type StopPhases } from "./stop-phases";
import { type IntakeOptions, startIntake } from "./telegram-intake";

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
export interface WebRoleOptions extends IntakeOptions {
  botInfo?: UserFromGetMe | undefined;
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
    ? telegramBot(
        { ...s, linkProbe: options.linkProbe },
        inFlight,
        journal,
        options.botInfo,
        options.timing.telegramRetry,
      )
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
      telegram:
        token && s.api
          ? { api: s.api, token, apiRoot: config.telegram.apiRoot, localFiles: config.telegram.localFiles }
          : null,
      logger,
    }),
  );
  await featureRoutes(app, s);
  if (config.dashboardPassword) {
    // bull-board and its UI weigh ~10 MB: loaded only where an operator asked for the dashboard
    const { adminDashboardRoutes } = await import("./http/admin-dashboard");
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
async function closeServer(server: ServerType, inFlight: InFlight, s: Services, drainMs: number) {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // updates still being handled (a webhook answered on timeout goes on) finish first
  if (!(await inFlight.idle(drainMs))) s.logger.warn({ updates: inFlight.count }, "updates still in flight");
  if ("closeAllConnections" in server) server.closeAllConnections();
  await closed;
}
