import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { FloodControl } from "../../../sandbox/playground/telegram/flood";
import { resolveRules } from "../../../sandbox/playground/telegram/rules";
import type { Clock } from "../../../src/platform/lib/clock";
import { sendLimiter } from "../../../src/platform/queue/send-limiter";

/**
 * BullMQ's limiter lets `max` jobs start per window, a window opening at the
 * first job after the last one closed. A job's send reaches Telegram some time
 * after it starts. Replays such schedules against the stand-in's global bucket.
 */
function floodsOf(
  perSecond: number,
  limiter: { max: number; duration: number },
  windows: { gapMs: number; lateMs: number[] }[],
): number {
  let now = 0;
  const clock: Clock = { now: () => now, sleep: async () => {}, toReal: (ms) => ms };
  const rules = resolveRules({
    flood: { perChat: false, perGroupPerMinute: false, globalPerSecond: perSecond },
  });
  const flood = new FloodControl(() => rules, clock);
  const sends: number[] = [];
  let opens = 0;
  for (const w of windows) {
    opens += w.gapMs;
    for (const late of w.lateMs.slice(0, limiter.max)) sends.push(opens + late);
    opens += limiter.duration;
  }
  let floods = 0;
  for (const at of sends.sort((a, b) => a - b)) {
    now = at;
    try {
      flood.take(1, false);
    } catch {
      floods++;
    }
  }
  return floods;
}

const schedule = (maxLateMs: number) =>
  fc.array(
    fc.record({
      gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 20 })),
      lateMs: fc.array(fc.integer({ min: 0, max: maxLateMs }), { minLength: 0, maxLength: 100 }),
    }),
    { minLength: 5, maxLength: 60 },
  );

describe("the send limiter", () => {
  test("keeps Telegram's rate within a few percent, in windows of at most a fifth of a second", () => {
    for (let perSecond = 1; perSecond <= 1000; perSecond++) {
      const { max, duration } = sendLimiter(perSecond);
      const rate = (max * 1000) / duration;
      expect(rate).toBeLessThanOrEqual(perSecond);
      expect(rate).toBeGreaterThanOrEqual(perSecond * 0.97);
      if (perSecond >= 10) expect(duration).toBeLessThanOrEqual(200);
    }
  });

  test("never meets a 429 from a bucket of one second's worth, however late each send comes within 300 ms", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1000 }), schedule(300), (perSecond, windows) => {
        expect(floodsOf(perSecond, sendLimiter(perSecond), windows)).toBe(0);
      }),
    );
  });

  test("a window of a whole second does meet 429s on such schedules (what the short windows prevent)", () => {
    const perSecond = 30;
    const oneSecond = { max: perSecond, duration: 1000 };
    // the first window's sends come late, the second's at once
    const windows = [
      { gapMs: 0, lateMs: Array.from({ length: perSecond }, () => 290) },
      { gapMs: 0, lateMs: Array.from({ length: perSecond }, () => 0) },
    ];
    expect(floodsOf(perSecond, oneSecond, windows)).toBeGreaterThan(0);
    expect(floodsOf(perSecond, sendLimiter(perSecond), windows)).toBe(0);
  });
});
