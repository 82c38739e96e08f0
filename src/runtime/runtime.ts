import type { UserFromGetMe } from "grammy/types";
import type { Hono } from "hono";
import type { Config } from "../platform/config/config";
import { type Clock, systemClock } from "../platform/lib/clock";
import { createLogger, type Logger } from "../platform/lib/logger";
import type { LinkProbeOptions } from "../platform/links/link-duration";
import type { MediaClient } from "../platform/media-service/client";
import type { WorkerSet } from "../platform/queue/workers";
import { checkDependencies } from "./preflight";
import { createReadiness } from "./readiness";
import { openServices } from "./services";
import { defaultPolicy, defaultTiming, type RuntimePolicy, type RuntimeTiming } from "./settings";
import { createStopPhases } from "./stop-phases";
import { watchMediaStore } from "./store-readiness";
import type { WebRole } from "./web-role";

export { mediaWebhookPath } from "./media-service";
export type { RuntimePolicy, RuntimeTiming } from "./settings";

export interface RuntimeOverrides {
  clock?: Clock;
  logger?: Logger;
  /** a media client of the caller's (tests); otherwise config decides */
  media?: MediaClient;
  botInfo?: UserFromGetMe;
  timing?: Partial<RuntimeTiming>;
  policy?: Partial<RuntimePolicy>;
  /** skip migrations (the caller already ran them) */
  skipMigrations?: boolean;
  /** more routes on the web role's server (the playground page), mounted at `path` */
  extraRoutes?: { path: string; app: Hono };
  /** how dubbing links are read for their length (tests: their own certificate and address policy) */
  linkProbe?: LinkProbeOptions;
  /**
   * Telegram refused us for good (wrong token, another instance polling): the
   * process cannot do its job. `main` exits non-zero; by default it is logged.
   */
  onFatal?(reason: string): void;
}

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
    config.dashboardPassword,
  ];
}

/**
 * One process with the roles its config asks for: `web` serves Telegram
 * updates, the media webhook, the file proxy, health and metrics; `worker` runs
 * the queues and the reconciler; `all` does both.
 */
export async function startRuntime(config: Config, overrides: RuntimeOverrides = {}) {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger(config.logLevel, undefined, secretsOf(config));
  const timing = { ...defaultTiming, ...overrides.timing };
  const policy = { ...defaultPolicy, ...overrides.policy };
  const stops = createStopPhases(logger);
  const onFatal =
    overrides.onFatal ?? ((reason: string) => logger.error({ reason }, "fatal: an operator must act"));
  const readiness = createReadiness();
  try {
    await checkDependencies(config);
    const services = await openServices(
      config,
      { clock, logger, policy, timing, media: overrides.media, skipMigrations: overrides.skipMigrations },
      stops,
    );
    // the workers need the bucket for every result; a web process only for its links, so an
    // outage of the bucket never takes Telegram's updates off it
    if (config.role !== "web") await watchMediaStore(services.store, readiness, stops, logger);
    // each role's code is loaded only where it runs: a web process never holds the
    // workers' modules (delivery, media parsing) nor a worker the bot's conversations
    const web: WebRole | undefined =
      config.role !== "worker"
        ? await (await import("./web-role")).startWebRole(
            services,
            {
              timing,
              botInfo: overrides.botInfo,
              readiness,
              onFatal,
              extraRoutes: overrides.extraRoutes,
              linkProbe: overrides.linkProbe,
            },
            stops,
          )
        : undefined;
    const workers: WorkerSet | undefined =
      config.role !== "web"
        ? (await import("./worker-role")).startWorkerRole(
            services,
            { timing, policy, linkProbe: overrides.linkProbe },
            stops,
          )
        : undefined;
    if (workers) {
      readiness.watch("workers", () =>
        workers.isRunning() ? { ok: true, detail: "running" } : { ok: false, detail: "not running" },
      );
    }
    // the worker role alone still serves its health and its own metrics
    const health =
      web ?? (await (await import("./health-server")).startHealthServer(services, readiness, stops));
    await web?.intake;
    const { db, ledger, users, generations, queues, media, simulator, metrics, store, payments } = services;
    return {
      config,
      db,
      ledger,
      users,
      generations,
      payments,
      queues,
      media,
      simulator,
      bot: web?.bot,
      metrics,
      store,
      workers,
      port: health.port,
      url: health.url,
      stop: stops.stopAll,
    };
  } catch (err) {
    await stops.stopAll();
    throw err;
  }
}
export type Runtime = Awaited<ReturnType<typeof startRuntime>>;
