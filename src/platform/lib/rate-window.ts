import type { Redis } from "ioredis";
import { z } from "zod";
import { groupCommit } from "./group-commit";

export interface RateWindowOptions {
  /** actions one key may take per window */
  limit: number;
  windowMs: number;
  /** Redis key prefix; per key a Redis key below it counts the current window */
  keyPrefix: string;
  /** beyond this Redis answer time the action passes (fail open) */
  redisTimeoutMs: number;
}

/** pass; the first over the limit (to be told once); the rest of the window */
export type RateVerdict = "pass" | "notify" | "silence";

/** The Redis key prefix of the per-user window the chat and the Mini App share. */
export const userRateKeyPrefix = (redisPrefix: string) => `${redisPrefix}:ratelimit:`;

/** Counts one more action in each key's window; a key's first count starts its window (ARGV[1] ms). */
const countInWindows = `
local counts = {}
for i, key in ipairs(KEYS) do
  counts[i] = redis.call('INCR', key)
  redis.call('PEXPIRE', key, ARGV[1], 'NX')
end
return counts`;
const countedWindows = z.array(z.number());

/**
 * A fixed window per key, counted in Redis so every process shares it. When
 * Redis is slow or down, actions pass: the limiter protects the bot, it must
 * not become the thing that stops it (`onError` hears why).
 */
export function rateWindow(redis: Redis, options: RateWindowOptions) {
  const { limit, windowMs, keyPrefix, redisTimeoutMs } = options;
  // The counts of actions in hand at once go to Redis in one round trip, as one
  // script: one command for the batch (a MULTI costs the client two per key).
  const counter = groupCommit(async (keys: readonly string[]) => {
    const counts = countedWindows.safeParse(
      await redis.eval(countInWindows, keys.length, ...keys, String(windowMs)),
    );
    return keys.map((_, i) => (counts.success ? counts.data[i] : undefined));
  });

  async function count(key: string, onError: (err: unknown) => void): Promise<number | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), redisTimeoutMs);
    });
    try {
      return await Promise.race([counter(`${keyPrefix}${key}`), timeout]);
    } catch (err) {
      onError(err);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    windowMs,
    /** counts one action of `key` and says whether it may go on */
    async verdict(key: string, onError: (err: unknown) => void): Promise<RateVerdict> {
      const n = await count(key, onError);
      if (n === undefined || n <= limit) return "pass";
      return n === limit + 1 ? "notify" : "silence";
    },
  };
}
export type RateWindow = ReturnType<typeof rateWindow>;
