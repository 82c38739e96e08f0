import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { Logger } from "../platform/lib/logger";

// KEYS: lease, done marker. ARGV: token, lease ms, "1" when a recent round counts.
const takeScript = `
if ARGV[3] == "1" and redis.call("EXISTS", KEYS[2]) == 1 then return 0 end
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return 1 end
return 0`;

// KEYS: lease. ARGV: token, lease ms.
const renewScript = `
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end
return 0`;

// KEYS: lease, done marker. ARGV: token, ms the done marker lives (none when 0).
const releaseScript = `
if redis.call("GET", KEYS[1]) ~= ARGV[1] then return 0 end
redis.call("DEL", KEYS[1])
if tonumber(ARGV[2]) > 0 then redis.call("SET", KEYS[2], ARGV[1], "PX", ARGV[2]) end
return 1`;

export type RoundOutcome = "ran" | "busy" | "unreachable";

export interface RoundLeases {
  /**
   * Runs `round` unless another process runs it now, or (unless `evenIfRecent`)
   * one started it less than about `intervalMs` ago. A failure of the round is
   * thrown; Redis failing to answer skips the round (logged at warn).
   */
  run(
    name: string,
    round: () => Promise<void>,
    options: { intervalMs: number; evenIfRecent?: boolean },
  ): Promise<RoundOutcome>;
}

export interface RoundLeaseDeps {
  redis: Redis;
  /** Redis key prefix shared by every process of this bot */
  prefix: string;
  /** real ms a holder that stopped renewing (its process died) keeps others out */
  leaseMs: number;
  logger: Logger;
}

/** The done marker lives this share of the interval: the holder's own next tick, one interval after it started, must find it gone. */
const doneShare = 0.9;

/**
 * Periodic rounds (reconcilers, checks, sweeps) run by one process at a time
 * however many run the same role: a Redis lease, renewed while the round runs.
 * A finished round leaves a marker for the rest of its interval, so the other
 * processes' ticks in that interval skip it and the round runs about once per
 * interval across all of them, not once per process.
 */
export function roundLeases(deps: RoundLeaseDeps): RoundLeases {
  const { redis, logger, leaseMs } = deps;
  const keys = (name: string) => {
    const base = `${deps.prefix}:round:${name.replace(/\s+/g, "-")}`;
    return { lease: base, done: `${base}:done` };
  };

  return {
    async run(name, round, options) {
      const { lease, done } = keys(name);
      const token = randomUUID();
      const startedAt = Date.now();
      try {
        const took = await redis.eval(
          takeScript,
          2,
          lease,
          done,
          token,
          leaseMs,
          options.evenIfRecent ? "0" : "1",
        );
        if (took !== 1) return "busy";
      } catch (err) {
        logger.warn({ err, round: name }, "Redis unreachable: round skipped");
        return "unreachable";
      }
      let lost = false;
      const renewal = setInterval(() => {
        redis.eval(renewScript, 1, lease, token, leaseMs).then(
          (renewed) => {
            if (renewed === 1 || lost) return;
            lost = true;
            logger.warn(
              { round: name },
              "round lease lost while the round ran: another process may run it too",
            );
          },
          (err: unknown) => logger.warn({ err, round: name }, "round lease not renewed"),
        );
      }, leaseMs / 3);
      renewal.unref();
      try {
        await round();
      } finally {
        clearInterval(renewal);
        const holdMs = Math.floor(options.intervalMs * doneShare) - (Date.now() - startedAt);
        await redis
          .eval(releaseScript, 2, lease, done, token, Math.max(0, holdMs))
          .catch((err: unknown) =>
            logger.warn({ err, round: name }, "round lease not released: it runs out by itself"),
          );
      }
      return "ran";
    },
  };
}
