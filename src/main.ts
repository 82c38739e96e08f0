import { ConfigError, environment, loadConfig } from "./platform/config/config";

function exitWith(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** Stops everything once on SIGINT/SIGTERM; a drain that hangs is cut short. */
function stopOnSignals(stop: () => Promise<void>, log: (signal: string) => void): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(signal);
    // updates then jobs drain, up to drainMs each (15 s by default), inside compose's 40 s grace
    const force = setTimeout(() => exitWith("drain took too long: exiting", 1), 38_000);
    force.unref();
    await stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

const env = environment();
// no bot token and no production settings: the whole product in a browser
const playground = !env.BOT_TOKEN && (env.SANDBOX || (!env.MEDIA_API_KEY && !env.DATABASE_URL));

if (playground) {
  const { startPlayground } = await import("../sandbox/playground/start");
  const { RedisUnavailableError } = await import("../sandbox/playground/redis");
  const { DataDirLockedError } = await import("./platform/db/data-dir-lock");
  try {
    const started = await startPlayground(env);
    process.on("unhandledRejection", (reason) =>
      started.logger.error({ err: reason }, "unhandled rejection"),
    );
    process.stdout.write(
      [
        "",
        `Media Studio Bot: sandbox mode on Node ${process.version} (no BOT_TOKEN), ready.`,
        `  ${started.setup}`,
        `Open ${started.url} in a browser. Ctrl-C stops everything.`,
        "With BOT_TOKEN=<token from @BotFather> the same command runs the bot on real Telegram.",
        "",
      ].join("\n"),
    );
    stopOnSignals(started.stop, (signal) => process.stdout.write(`${signal}: stopping the playground\n`));
  } catch (err) {
    if (err instanceof RedisUnavailableError || err instanceof DataDirLockedError) exitWith(err.message, 2);
    if (err instanceof ConfigError) exitWith(err.message, 2);
    if ((err as { code?: unknown } | null)?.code === "EADDRINUSE") {
      const port = env.PORT || "8080";
      exitWith(
        `Port ${port} is in use (another playground still running?). Stop it, or choose another port: PORT=8081 npm run sandbox`,
        2,
      );
    }
    throw err;
  }
} else {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) exitWith(err.message, 2);
    throw err;
  }

  // loaded only once the configuration is known to be good, so a bad one is reported fast
  const { mediaWebhookPath, secretsOf, startRuntime } = await import("./runtime/runtime");
  const { createLogger } = await import("./platform/lib/logger");
  const { PriceTableError } = await import("./domain/pricing/prices");
  const { DataDirLockedError } = await import("./platform/db/data-dir-lock");
  const { StartupError } = await import("./runtime/preflight");
  const logger = createLogger(config.logLevel, undefined, secretsOf(config));
  // a stray rejection (a webhook update finishing after its timeout answer) is logged, never fatal
  process.on("unhandledRejection", (reason) => logger.error({ err: reason }, "unhandled rejection"));
  let stop: (() => Promise<void>) | undefined;
  /** Telegram refused us for good: stop what runs, and exit non-zero so an orchestrator notices. */
  const fatal = (reason: string) => {
    logger.error({ reason }, "fatal: an operator must act");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void (stop?.() ?? Promise.resolve()).finally(() => process.exit(1));
  };
  try {
    const runtime = await startRuntime(config, { logger, onFatal: fatal });
    stop = runtime.stop;
    logger.info(
      {
        role: config.role,
        sandbox: config.sandbox,
        node: process.version,
        http: runtime.url,
        mediaWebhook: `${config.publicUrl}${mediaWebhookPath(config).replace(config.media.webhookSecret, "<MEDIA_WEBHOOK_SECRET>")}`,
      },
      "media studio bot started",
    );
    stopOnSignals(runtime.stop, (signal) =>
      logger.info({ signal }, "draining: no new updates, finishing jobs in progress"),
    );
  } catch (err) {
    if (err instanceof PriceTableError || err instanceof DataDirLockedError) exitWith(err.message, 2);
    if (err instanceof StartupError) exitWith(err.message, 1);
    logger.fatal({ err }, "start-up failed");
    process.exit(1);
  }
}
