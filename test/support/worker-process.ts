import { inspect } from "node:util";
import { loadConfig } from "../../src/platform/config/config";
import { scaledClock } from "../../src/platform/lib/clock";
import { createLogger } from "../../src/platform/lib/logger";
import { createMediaClient } from "../../src/platform/media-service/client";
import { secretsOf, startRuntime } from "../../src/runtime/runtime";

/**
 * A runtime (the worker role, or the web role with the bot) in a process of its
 * own, on the test's clock, so a crash test can kill it with SIGKILL mid-job.
 * Configured through the environment.
 */
// as src/main.ts does: a stray rejection never kills the process (it is printed here, where a test sees it)
process.on("unhandledRejection", (reason) => {
  process.stderr.write(`unhandled rejection in a test runtime: ${inspect(reason)}\n`);
});
const config = loadConfig(process.env);
const clock = scaledClock(
  Number(process.env.CLOCK_FACTOR ?? 1),
  Number(process.env.CLOCK_ORIGIN ?? Date.now()),
);
const runtime = await startRuntime(config, {
  clock,
  logger: createLogger(config.logLevel, undefined, secretsOf(config)),
  skipMigrations: true,
  timing: JSON.parse(process.env.RUNTIME_TIMING ?? "{}"),
  policy: JSON.parse(process.env.RUNTIME_POLICY ?? "{}"),
  media: createMediaClient({
    baseUrl: config.media.baseUrl!,
    apiKey: config.media.apiKey!,
    retryBaseMs: Number(process.env.MEDIA_RETRY_BASE_MS ?? 500),
    retryMaxMs: 200,
  }),
});
process.stdout.write("runtime ready\n");
process.on("SIGTERM", () => {
  void runtime.stop().then(() => process.exit(0));
});
