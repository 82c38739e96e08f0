import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  cutPoints,
  cutWindow,
  dubBudgets,
  partGuardMs,
  planParts,
} from "../../../src/domain/generations/dub-parts";
import { quote, settle } from "../../../src/domain/generations/quote";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";

const prices = createPrices(loadPriceTable());
const perMinute = prices.table.dub.perMinute;
const minute = 60_000;
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

describe("dubbing in parts: the rules", () => {
  test("the budgets: the fewest parts of at most 5 minutes, whole started minutes spread evenly, the fewest in all", () => {
    expect(dubBudgets(61)).toEqual([2]);
    expect(dubBudgets(300)).toEqual([5]);
    expect(dubBudgets(300.4)).toEqual([3, 3]);
    // 12 minutes and a little: 13 started minutes in 3 parts, not 5 + 5 + 3 with the cuts elsewhere
    expect(dubBudgets(720.3)).toEqual([5, 4, 4]);
    expect(dubBudgets(750)).toEqual([5, 4, 4]);
    // each cut part keeps half a second for what cutting and encoding add
    expect(dubBudgets(599)).toEqual([5, 5]);
    expect(dubBudgets(599.5)).toEqual([4, 4, 3]);
    // 50 minutes: 11 parts, 51 started minutes (not 55)
    expect(dubBudgets(3000)).toEqual([5, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4]);
    expect(dubBudgets(2990)).toEqual(Array(10).fill(5));
    for (const seconds of [301, 719, 720.3, 1234.5, 2999, 3600]) {
      const budgets = dubBudgets(seconds);
      expect(Math.max(...budgets)).toBeLessThanOrEqual(5);
      expect(sum(budgets) * minute - budgets.length * partGuardMs).toBeGreaterThanOrEqual(seconds * 1000);
      expect(sum(budgets)).toBeLessThanOrEqual(
        Math.ceil((seconds * 1000 + budgets.length * partGuardMs) / minute),
      );
    }
  });

  test('the quote: the budgets of the length read and a second more; "up to" where the charge can fall', () => {
    // 12 min 30 s read: held for 13 minutes, which is also the least it can be
    expect(quote(prices, { operation: "dub", durationSeconds: 750 })).toEqual({
      ok: true,
      unit: perMinute,
      credits: 13 * perMinute,
    });
    // 12:00 read: the file may be 12:00.9, 13 started minutes; it may also be 12 minutes
    expect(quote(prices, { operation: "dub", durationSeconds: 720 })).toMatchObject({
      credits: 13 * perMinute,
      upTo: true,
    });
    // within 5 minutes it is one task, as before
    expect(quote(prices, { operation: "dub", durationSeconds: 61 })).toEqual({
      ok: true,
      unit: perMinute,
      credits: 2 * perMinute,
    });
    // a link whose length is not read: held for 5 minutes, charged what it measures
    expect(quote(prices, { operation: "dub" })).toMatchObject({ credits: 5 * perMinute, upTo: true });
  });

  test("without pauses the cuts are hard, at each budget's end less the guard", () => {
    // 12:30: budgets 5, 4, 4
    expect(cutPoints(12.5 * minute, [])).toEqual([5 * minute - partGuardMs, 9 * minute - 2 * partGuardMs]);
    expect(planParts(12 * minute, [4 * minute, 8 * minute])).toEqual([
      { index: 0, startMs: 0, endMs: 4 * minute },
      { index: 1, startMs: 4 * minute, endMs: 8 * minute },
      { index: 2, startMs: 8 * minute, endMs: 12 * minute },
    ]);
  });

  test("the pause latest in the window before the budget's end takes the cut, in its middle; one outside the window does not", () => {
    // 7 minutes: budgets 4 + 4, the first part ends by 3:59.5, pauses from 3:29.5 count
    const pauses = [
      { startMs: 2 * minute, endMs: 2 * minute + 1000 }, // too early: the second part would pass its 4 minutes
      { startMs: 3 * minute + 10_000, endMs: 3 * minute + 12_000 }, // outside the 30 s window
      { startMs: 3 * minute + 35_000, endMs: 3 * minute + 36_000 },
      { startMs: 3 * minute + 45_000, endMs: 3 * minute + 46_000 },
    ];
    expect(cutPoints(7 * minute, pauses)).toEqual([3 * minute + 45_500]);
    expect(cutPoints(7 * minute, pauses.slice(0, 3))).toEqual([3 * minute + 35_500]);
    // no pause allows: a hard cut at the budget's end
    expect(cutPoints(7 * minute, pauses.slice(0, 2))).toEqual([4 * minute - partGuardMs]);
    // a pause across the budget's end is cut at the end
    expect(cutPoints(7 * minute, [{ startMs: 3 * minute + 58_000, endMs: 4 * minute + 10_000 }])).toEqual([
      4 * minute - partGuardMs,
    ]);
  });

  test("a part never passes its budget, even where a long pause runs past it", () => {
    // 9 min: budgets 5 + 5; a pause from 4:40 to 6:00 has its middle past 5:00
    const [cut] = cutPoints(9 * minute, [{ startMs: 4 * minute + 40_000, endMs: 6 * minute }]);
    expect(cut).toBe(5 * minute - partGuardMs);
  });

  test("any length and any pauses: every part within its budget, cuts in pauses where one overlaps the window", () => {
    const silences = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 3_600_000 }), fc.integer({ min: 300, max: 5_000 })), {
        maxLength: 60,
      })
      .map((xs) => xs.map(([startMs, length]) => ({ startMs, endMs: startMs + length })));
    fc.assert(
      fc.property(fc.integer({ min: 300_001, max: 3_600_000 }), silences, (durationMs, pauses) => {
        const budgets = dubBudgets(durationMs / 1000);
        const cuts = cutPoints(durationMs, pauses);
        const parts = planParts(durationMs, cuts);
        expect(parts).toHaveLength(budgets.length);
        for (const [k, part] of parts.entries())
          expect(part.endMs - part.startMs).toBeLessThanOrEqual(budgets[k]! * minute - partGuardMs);
        let previous = 0;
        for (const [k, cut] of cuts.entries()) {
          expect(cut).toBeGreaterThan(previous);
          const { earliest, latest } = cutWindow(durationMs, budgets, k + 1, previous);
          expect(cut).toBeGreaterThanOrEqual(earliest);
          expect(cut).toBeLessThanOrEqual(latest);
          const near = pauses.some((p) => p.startMs <= latest && p.endMs >= earliest);
          if (near) expect(pauses.some((p) => p.startMs <= cut + 1 && cut <= p.endMs)).toBe(true);
          else expect(cut).toBe(latest);
          previous = cut;
        }
      }),
    );
  });

  test("a dub in parts is charged for the parts' measured lengths, never more than was held", () => {
    const params = {
      v: 1 as const,
      operation: "dub" as const,
      source: { kind: "url" as const, url: "https://example.com/a.mp3" },
      targetLanguage: "de" as const,
      sourceLanguage: "auto" as const,
      durationSeconds: 720,
    };
    const held = 13 * perMinute;
    const got = { images: 0, videos: 0, audios: 1 };
    // within the budgets 5 + 4 + 4: the service bills the hold, and so does the user
    expect(settle(prices, params, held, { ...got, measuredSeconds: [290, 235, 195] })).toBe(held);
    // parts in fewer started minutes: less
    expect(settle(prices, params, held, { ...got, measuredSeconds: [240, 240, 240] })).toBe(12 * perMinute);
    // never more than held
    expect(settle(prices, params, held, { ...got, measuredSeconds: [300, 300, 300] })).toBe(held);
  });
});
