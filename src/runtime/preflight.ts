import { Redis } from "ioredis";
import postgres from "postgres";
import type { Config } from "../platform/config/config";

/** A dependency the process cannot start without: one line saying what to start or set. */
export class StartupError extends Error {}

const within = <T>(ms: number, work: Promise<T>, what: string) =>
  Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not answer in ${ms} ms`)), ms),
    ),
  ]);

/** Where a URL points, without its credentials. */
function place(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol.startsWith("redis") ? 6379 : 5432)}`;
  } catch {
    return "the configured address";
  }
}

/**
 * Postgres and Redis answer before anything else starts, so that a missing one
 * is reported in one clear line within seconds instead of a stream of retries.
 */
export async function checkDependencies(config: Config, timeoutMs = 5_000): Promise<void> {
  if (config.database.kind === "postgres") {
    const url = config.database.url;
    const client = postgres(url, {
      max: 1,
      onnotice: () => {},
      connect_timeout: Math.ceil(timeoutMs / 1000),
    });
    try {
      await within(timeoutMs, client`select 1`, "Postgres");
    } catch {
      throw new StartupError(
        `Postgres at ${place(url)} does not answer: start it, or set DATABASE_URL to one that runs (unset, the embedded database is used in sandbox mode).`,
      );
    } finally {
      await client.end({ timeout: 1 }).catch(() => undefined);
    }
  }
  const redis = new Redis(config.redis.url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
  });
  redis.on("error", () => undefined);
  try {
    await within(
      timeoutMs,
      redis.connect().then(() => redis.ping()),
      "Redis",
    );
  } catch {
    throw new StartupError(
      `Redis at ${place(config.redis.url)} does not answer: start it (e.g. \`redis-server\`), or set REDIS_URL to one that runs.`,
    );
  } finally {
    redis.disconnect();
  }
}
