import { ConfigError, environment, loadConfig } from "./config";

function exitWith(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(environment());
} catch (err) {
  if (err instanceof ConfigError) exitWith(err.message, 2);
  throw err;
}

if (!config.telegram.token) {
  exitWith(
    [
      "SANDBOX mode needs a Telegram bot to talk to. Set BOT_TOKEN:",
      "  1. In Telegram, open @BotFather, send /newbot and follow the steps.",
      "  2. Copy the token it gives you (it looks like 123456789:AA...).",
      "  3. Run:  BOT_TOKEN=<that token> npm run sandbox",
      "Everything else (database, media service) is embedded in sandbox mode.",
    ].join("\n"),
    2,
  );
}

// loaded only once the configuration is known to be good, so a bad one is reported fast
const { mediaWebhookPath, secretsOf, startRuntime } = await import("./app");
const { createLogger } = await import("./lib/logger");
const { PriceTableError } = await import("./pricing/prices");
const logger = createLogger(config.logLevel, undefined, secretsOf(config));
// a stray rejection (a webhook update finishing after its timeout answer) is logged, never fatal
process.on("unhandledRejection", (reason) => logger.error({ err: reason }, "unhandled rejection"));
try {
  const runtime = await startRuntime(config, { logger });
  logger.info(
    {
      role: config.role,
      sandbox: config.sandbox,
      http: runtime.url,
      mediaWebhook: `${config.publicUrl}${mediaWebhookPath(config).replace(config.media.webhookSecret, "<MEDIA_WEBHOOK_SECRET>")}`,
    },
    "media studio bot started",
  );
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "draining: no new updates, finishing jobs in progress");
    const force = setTimeout(() => exitWith("drain took too long: exiting", 1), 30_000);
    force.unref();
    await runtime.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
} catch (err) {
  if (err instanceof PriceTableError) exitWith(err.message, 2);
  logger.fatal({ err }, "start-up failed");
  process.exit(1);
}
