import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  cutPoints,
  cutWindowMs,
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
  test("one part per started 5 minutes; the price is the parts' sum, each per started minute", () => {
    expect(dubPartCount(300)).toBe(1);
    expect(dubPartCount(300.4)).toBe(2);
    expect(dubPartCount(750)).toBe(3);
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

  test("without pauses the cuts are hard, at 5 minutes each", () => {
    expect(cutPoints(12 * minute, [])).toEqual([5 * minute, 10 * minute]);
    expect(planParts(12 * minute, [5 * minute, 10 * minute])).toEqual([
      { index: 0, startMs: 0, endMs: 5 * minute },
      { index: 1, startMs: 5 * minute, endMs: 10 * minute },
      { index: 2, startMs: 10 * minute, endMs: 12 * minute },
    ]);
  });

  test("a pause in the window before a part's latest end takes the cut, in its middle; one outside does not", () => {
    const pauses = [
      { startMs: 4 * minute, endMs: 4 * minute + 1000 }, // 60 s before the end: too early
      { startMs: 5 * minute - 12_000, endMs: 5 * minute - 10_000 },
    ];
    expect(cutPoints(7 * minute, pauses)[0]).toBe(5 * minute - 11_000);
    // a pause reaching past the latest end: the cut stays within 5 minutes, inside the pause
    expect(cutPoints(7 * minute, [{ startMs: 5 * minute - 500, endMs: 5 * minute + 3000 }])).toEqual([
      5 * minute,
    ]);
  });

  test("the cuts leave the rest short enough for the parts left (as few parts as the length allows)", () => {
    // 10 min exactly: 2 parts, so the only cut possible is at 5:00, pauses or not
    expect(cutPoints(10 * minute, [{ startMs: 4 * minute + 40_000, endMs: 4 * minute + 42_000 }])).toEqual([
      5 * minute,
    ]);
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
          const latest = previous + 5 * minute;
          // the allowed window: before the latest end, and late enough for the parts left to hold the rest
          const rest = durationMs - (parts.length - 1 - k) * 5 * minute;
          const earliest = Math.max(previous + 1, latest - cutWindowMs, rest);
          const near = pauses.filter((p) => p.startMs < latest && p.endMs > earliest);
          if (near.length > 0 && cut > earliest)
            expect(pauses.some((p) => p.startMs <= cut && cut <= p.endMs)).toBe(true);
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
