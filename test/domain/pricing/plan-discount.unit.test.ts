import { describe, expect, test } from "vitest";
import type { GenerationParams } from "../../../src/domain/generations/params";
import { quote, settle } from "../../../src/domain/generations/quote";
import { createPrices, discounted, loadPriceTable } from "../../../src/domain/pricing/prices";

/**
 * A plan's discount on the price list: every price is rounded up to a whole
 * credit after the discount, a dub's parts each as it is priced, and a
 * request's settled charge goes through the same functions as its price.
 */
describe("a plan's discount on the prices", () => {
  const list = createPrices(loadPriceTable());
  const plan = list.withDiscount(20);

  test("percent off, rounded up: never free, never below the rule", () => {
    expect(discounted(100, 20)).toBe(80);
    expect(discounted(6, 20)).toBe(5); // 4.8 rounds up
    expect(discounted(1, 90)).toBe(1);
    expect(discounted(7, 0)).toBe(7);
    // any price, any discount: within a credit of the exact share, and at least 1
    for (let credits = 1; credits <= 300; credits++)
      for (const percent of [1, 10, 33, 50, 90]) {
        const exact = (credits * (100 - percent)) / 100;
        const got = discounted(credits, percent);
        expect(got).toBeGreaterThanOrEqual(exact);
        expect(got - exact).toBeLessThan(1);
        expect(got).toBeGreaterThanOrEqual(1);
      }
  });

  test("images, videos and dubs cost the discounted price and say so; the list itself carries no discount", () => {
    expect(list.image("nano-core-2", undefined, 3)).toEqual({ ok: true, unit: 6, credits: 18 });
    expect(plan.image("nano-core-2", undefined, 3)).toEqual({ ok: true, unit: 6, credits: 15, discount: 20 });
    expect(plan.video("video-a-v3-turbo", "720p", 5)).toEqual({
      ok: true,
      unit: 3,
      credits: 12,
      discount: 20,
    });
    expect(plan.image("no-such-model", "1K", 1)).toEqual({ ok: false, reason: "no_price" });
    // a dub of two parts: each part discounted as it is priced, the price their sum
    const dub = quote(plan, { operation: "dub", durationSeconds: 6 * 60 });
    const parts = quote(list, { operation: "dub", durationSeconds: 6 * 60 });
    expect(dub.ok && parts.ok && dub.credits).toBeLessThan(parts.ok ? parts.credits : 0);
    expect(dub).toMatchObject({ ok: true, discount: 20 });
    expect(plan.withDiscount(0)).toMatchObject({ discount: 0 });
    expect(plan.withDiscount(20)).toBe(plan);
  });

  test("a request settles at the discount it was held at: fewer images cost fewer discounted images", () => {
    const params: GenerationParams = {
      v: 1,
      operation: "image",
      prompt: "a lighthouse",
      model: "nano-core-2",
      imageSize: "1:1",
      numImages: 4,
    };
    const held = quote(plan, params);
    expect(held).toMatchObject({ ok: true, credits: discounted(24, 20) });
    const heldCredits = held.ok ? held.credits : 0;
    expect(settle(plan, params, heldCredits, { images: 4, videos: 0, audios: 0 })).toBe(heldCredits);
    expect(settle(plan, params, heldCredits, { images: 1, videos: 0, audios: 0 })).toBe(discounted(6, 20));
    // the list price for what came back is never charged past the discounted hold
    expect(settle(list, params, heldCredits, { images: 4, videos: 0, audios: 0 })).toBe(heldCredits);
  });
});
