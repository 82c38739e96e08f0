import { randomBytes } from "node:crypto";
import { createLogger } from "../../src/platform/lib/logger";
import { startSimulator } from "./server";

/** `npm run simulator`: the media service stand-in on a port a person can curl. */

const env = process.env;
const logger = createLogger(env.LOG_LEVEL ?? "info");
const apiKey = env.SIMULATOR_API_KEY || `sim_${randomBytes(12).toString("hex")}`;
const port = Number(env.PORT ?? 8090);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${env.PORT}`);
  process.exit(1);
}
const latency = env.SIMULATOR_LATENCY_MS ? Number(env.SIMULATOR_LATENCY_MS) : undefined;

const sim = await startSimulator({
  apiKey,
  port,
  host: env.HOST ?? "127.0.0.1",
  ...(env.SIMULATOR_PUBLIC_URL && { publicUrl: env.SIMULATOR_PUBLIC_URL }),
  ...(latency !== undefined &&
    Number.isFinite(latency) && {
      latencyMs: { image: latency, edit: latency, video: latency, dub: latency },
    }),
  ...(env.SIMULATOR_WEBHOOK_URL && {
    webhook: { url: env.SIMULATOR_WEBHOOK_URL, signingSecret: env.SIMULATOR_WEBHOOK_SECRET || undefined },
  }),
  logger,
});

console.log(`media service simulator listening on ${sim.url}`);
console.log(`API key: ${apiKey}`);
console.log(`try: curl -H "Authorization: Bearer ${apiKey}" -H "Content-Type: application/json" \\
  -d '{"prompt":"a red lighthouse at dusk"}' ${sim.url}/api/v1/images/generations`);
if (env.SIMULATOR_WEBHOOK_URL) console.log(`task.completed webhooks go to ${env.SIMULATOR_WEBHOOK_URL}`);

const shutdown = () => {
  void sim.close().then(() => process.exit(0));
};
process.once("SIGINT", shutdown);
process.once("SIGTERM", shutdown);
