import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  cutPoints,
  cutWindow,
  dubPartCount,
  planParts,
  quotedPartSeconds,
} from "../../src/generations/dub-parts";
import { quote, settle } from "../../src/generations/quote";
import { createPrices, loadPriceTable } from "../../src/pricing/prices";

const prices = createPrices(loadPriceTable());
const perMinute = prices.table.dub.perMinute;
const minute = 60_000;

describe("dubbing in parts: the rules", () => {
  test("the fewest parts that leave each cut room for a pause; the price is the least the service bills, per started minute", () => {
    expect(dubPartCount(300)).toBe(1);
    expect(dubPartCount(300.4)).toBe(2);
    expect(dubPartCount(750)).toBe(3);
    // just under or at a multiple of 5 minutes: one part more, so no cut is forced mid-word
    expect(dubPartCount(600)).toBe(3);
    expect(dubPartCount(3600)).toBe(13);
    expect(quote(prices, { operation: "dub", durationSeconds: 600 })).toMatchObject({
      credits: 10 * perMinute,
    });
    expect(quotedPartSeconds(750)).toEqual([300, 300, 150]);
    // 12 min 30 s: 5 + 5 + 3 minutes, as the example
    expect(quote(prices, { operation: "dub", durationSeconds: 750 })).toMatchObject({
      ok: true,
      credits: 13 * perMinute,
    });
    // within 5 minutes it is one task, as before
    expect(quote(prices, { operation: "dub", durationSeconds: 61 })).toMatchObject({
      credits: 2 * perMinute,
    });
  });

  test("without pauses the cuts are hard, splitting the file evenly", () => {
    expect(cutPoints(12 * minute, [])).toEqual([4 * minute, 8 * minute]);
    expect(cutPoints(10 * minute, [])).toEqual([200_000, 400_000]);
    expect(planParts(12 * minute, [4 * minute, 8 * minute])).toEqual([
      { index: 0, startMs: 0, endMs: 4 * minute },
      { index: 1, startMs: 4 * minute, endMs: 8 * minute },
      { index: 2, startMs: 8 * minute, endMs: 12 * minute },
    ]);
  });

  test("the pause nearest the even split takes the cut, in its middle; one outside the window does not", () => {
    // 7 minutes: 2 parts, split at 3:30, pauses within 30 s of it count
    const pauses = [
      { startMs: 2 * minute, endMs: 2 * minute + 1000 }, // 89 s early: too far
      { startMs: 3 * minute + 10_000, endMs: 3 * minute + 12_000 },
      { startMs: 3 * minute + 45_000, endMs: 3 * minute + 46_000 },
    ];
    expect(cutPoints(7 * minute, pauses)).toEqual([3 * minute + 46_000 - 500]);
    expect(cutPoints(7 * minute, pauses.slice(0, 2))).toEqual([3 * minute + 11_000]);
    expect(cutPoints(7 * minute, pauses.slice(0, 1))).toEqual([3.5 * minute]);
    // a part may not pass 5 minutes: a long pause is cut where it still can
    expect(
      cutPoints(9 * minute + 50_000, [{ startMs: 4 * minute + 40_000, endMs: 6 * minute }])[0],
    ).toBeLessThanOrEqual(5 * minute);
  });

  test("a part is never longer than 5 minutes, even where the even split would land in a long pause", () => {
    // 9 min in 2 parts: the split (4:30) is near a pause from 4:40 to 6:00 whose middle is past 5:00
    const [cut] = cutPoints(9 * minute, [{ startMs: 4 * minute + 40_000, endMs: 6 * minute }]);
    expect(cut).toBe(5 * minute);
  });

  test("any length and any pauses: every part at most 5 minutes, as many parts as quoted, cuts in pauses where one overlaps the window", () => {
    const silences = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 3_600_000 }), fc.integer({ min: 300, max: 5_000 })), {
        maxLength: 60,
      })
      .map((xs) => xs.map(([startMs, length]) => ({ startMs, endMs: startMs + length })));
    fc.assert(
      fc.property(fc.integer({ min: 300_001, max: 3_600_000 }), silences, (durationMs, pauses) => {
        const cuts = cutPoints(durationMs, pauses);
        const parts = planParts(durationMs, cuts);
        expect(parts).toHaveLength(dubPartCount(durationMs / 1000));
        let previous = 0;
        for (const [k, cut] of cuts.entries()) {
          expect(cut).toBeGreaterThan(previous);
          expect(cut - previous).toBeLessThanOrEqual(5 * minute);
          const { earliest, latest } = cutWindow(durationMs, parts.length, k + 1, previous);
          expect(cut).toBeGreaterThanOrEqual(Math.floor(earliest));
          expect(cut).toBeLessThanOrEqual(Math.ceil(latest));
          const near = pauses.some((p) => p.startMs < latest && p.endMs > earliest);
          if (near) expect(pauses.some((p) => p.startMs <= cut && cut <= p.endMs)).toBe(true);
          previous = cut;
        }
        expect(durationMs - previous).toBeLessThanOrEqual(5 * minute);
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
    const held = 12 * perMinute;
    const got = { images: 0, videos: 0, audios: 1 };
    // cut at pauses: 4:50 + 4:55 + 2:15: 5 + 5 + 3 minutes, more than held: the hold caps it
    expect(settle(prices, params, held, { ...got, measuredSeconds: [290, 295, 135] })).toBe(held);
    // shorter parts than quoted: less
    expect(settle(prices, params, held, { ...got, measuredSeconds: [240, 240, 100] })).toBe(10 * perMinute);
  });
});
