import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import pino from "pino";
import { afterEach, describe, expect, test } from "vitest";
import { every } from "../../src/runtime/periodic";
import { roundLeases } from "../../src/runtime/round-lease";
import { createStopPhases, type StopPhases } from "../../src/runtime/stop-phases";
import { deleteRedisKeys, eventually, redisUrl } from "../support/harness";

const silent = pino({ level: "silent" });

/**
 * Periodic rounds on the real Redis, each runner standing for a process of its
 * own (its own connection, its own timer): one round at a time across them.
 */
describe("periodic rounds across processes", () => {
  let prefix = "";
  const connections: Redis[] = [];
  const stops: StopPhases[] = [];

  afterEach(async () => {
    for (const s of stops.splice(0)) await s.stopAll();
    for (const c of connections.splice(0)) c.disconnect();
    await deleteRedisKeys(prefix);
  });

  function connect(url = redisUrl, options: { maxRetriesPerRequest?: number } = {}): Redis {
    const redis = new Redis(url, { ...options, retryStrategy: () => 50 });
    redis.on("error", () => undefined);
    connections.push(redis);
    return redis;
  }

  /** A process's runner of the round "sweep": `every` on its own connection. */
  function runner(
    intervalMs: number,
    task: () => Promise<void>,
    options: { leaseMs?: number; redis?: Redis; atStart?: boolean } = {},
  ) {
    const s = createStopPhases(silent);
    stops.push(s);
    const rounds = roundLeases({
      redis: options.redis ?? connect(),
      prefix,
      leaseMs: options.leaseMs ?? 1_000,
      logger: silent,
    });
    every("sweep", intervalMs, task, {
      logger: silent,
      stops: s,
      rounds,
      ...(options.atStart ? { atStart: true } : {}),
    });
    return s;
  }

  /** Rounds that take `roundMs`, counted per runner, with how many ran at once at most. */
  function watched(roundMs: number) {
    let active = 0;
    const seen = { most: 0, log: [] as Array<{ who: number; start: number; end: number }> };
    const task = (who: number) => async () => {
      const start = Date.now();
      active++;
      seen.most = Math.max(seen.most, active);
      await sleep(roundMs);
      active--;
      seen.log.push({ who, start, end: Date.now() });
    };
    const count = (who: number) => seen.log.filter((r) => r.who === who).length;
    return { seen, task, count };
  }

  test("three runners of one round: never two rounds at once, and each of them runs some", async () => {
    prefix = `msb-rounds-${randomBytes(6).toString("hex")}`;
    // rounds longer than the interval: no time is left to mark them done, the lease alone decides
    const w = watched(30);
    runner(17, w.task(0));
    runner(20, w.task(1));
    runner(23, w.task(2));
    await eventually(async () => ([0, 1, 2].every((who) => w.count(who) >= 2) ? true : undefined), 15_000);
    expect(w.seen.most).toBe(1);
  });

  test("a finished round is skipped by the other runners for the rest of its interval, then run by one of them", async () => {
    prefix = `msb-rounds-${randomBytes(6).toString("hex")}`;
    const redis = connect();
    const [first, second, third] = [0, 1, 2].map(() =>
      roundLeases({ redis: connect(), prefix, leaseMs: 1_000, logger: silent }),
    );
    const intervalMs = 400;
    let rounds = 0;
    const round = async () => {
      rounds++;
    };
    expect(await first!.run("sweep", round, { intervalMs })).toBe("ran");
    // the others' ticks within the interval find the round done
    expect(await second!.run("sweep", round, { intervalMs })).toBe("busy");
    expect(await third!.run("sweep", round, { intervalMs })).toBe("busy");
    expect(rounds).toBe(1);
    // it counts as done for the rest of the interval, no longer: the holder's own next tick runs it
    const done = `${prefix}:round:sweep:done`;
    const left = await redis.pttl(done);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(0.9 * intervalMs);
    await eventually(async () => ((await redis.exists(done)) === 0 ? true : undefined));
    expect(await third!.run("sweep", round, { intervalMs })).toBe("ran");
    expect(await first!.run("sweep", round, { intervalMs })).toBe("busy");
    expect(rounds).toBe(2);
  });

  test("a holder that died (no renewal) keeps the round until its lease runs out, then another takes it", async () => {
    prefix = `msb-rounds-${randomBytes(6).toString("hex")}`;
    const leaseMs = 600;
    const doomed = connect();
    let takenAt = 0;
    let finish = () => {};
    runner(
      20,
      async () => {
        takenAt = Date.now();
        // the process is gone: nothing it sends reaches Redis any more
        doomed.disconnect();
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
      { leaseMs, redis: doomed },
    );
    try {
      await eventually(async () => (takenAt > 0 ? true : undefined), 5_000);
      const w = watched(5);
      runner(20, w.task(1), { leaseMs });
      await eventually(async () => (w.count(1) > 0 ? true : undefined), leaseMs + 5_000);
      const first = w.seen.log[0]!;
      // a few ms of slack: the lease's clock is Redis's, the take was timed here just after it
      expect(first.start - takenAt).toBeGreaterThanOrEqual(leaseMs - 30);
    } finally {
      finish();
    }
  });

  test("a round longer than its lease stays exclusive: the holder renews it while it runs", async () => {
    prefix = `msb-rounds-${randomBytes(6).toString("hex")}`;
    const leaseMs = 300;
    const w = watched(4 * leaseMs);
    const holder = runner(20, w.task(0), { leaseMs });
    // its long round is under way before the other runner starts
    await eventually(async () => (w.seen.most > 0 ? true : undefined));
    runner(20, w.task(1), { leaseMs });
    await eventually(async () => (w.count(0) > 0 ? true : undefined), 10_000);
    // once the long round is over its runner stops (letting a round it began meanwhile end):
    // otherwise the two race for every next round, and the other could lose each one
    await holder.stopAll();
    await eventually(async () => (w.count(1) > 0 ? true : undefined), 10_000);
    const long = w.seen.log.find((r) => r.who === 0)!;
    const other = w.seen.log.find((r) => r.who === 1)!;
    expect(other.start).toBeGreaterThanOrEqual(long.end);
    expect(w.seen.most).toBe(1);
  });

  test("a runner started after a recent round runs one at start all the same (a restart reconciles at once)", async () => {
    prefix = `msb-rounds-${randomBytes(6).toString("hex")}`;
    const w = watched(1);
    runner(10_000, w.task(0), { atStart: true });
    await eventually(async () => (w.count(0) === 1 ? true : undefined), 5_000);
    runner(10_000, w.task(1));
    runner(10_000, w.task(2), { atStart: true });
    await eventually(async () => (w.count(2) === 1 ? true : undefined), 5_000);
    expect(w.count(1)).toBe(0);
  });

  test("Redis unreachable: the round is skipped and a warning logged, never run unguarded", async () => {
    prefix = `msb-rounds-${randomBytes(6).toString("hex")}`;
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const rounds = roundLeases({
      redis: connect("redis://127.0.0.1:1", { maxRetriesPerRequest: 1 }),
      prefix,
      leaseMs: 1_000,
      logger,
    });
    let ran = 0;
    const task = async () => {
      ran++;
    };
    expect(await rounds.run("sweep", task, { intervalMs: 50 })).toBe("unreachable");
    const s = createStopPhases(logger);
    stops.push(s);
    every("sweep", 50, task, { logger, stops: s, rounds, atStart: true });
    const skipped = () => lines.filter((l) => l.msg === "Redis unreachable: round skipped").length;
    await eventually(async () => (skipped() >= 3 ? true : undefined));
    expect(ran).toBe(0);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});
