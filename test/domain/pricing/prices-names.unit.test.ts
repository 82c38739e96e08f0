import { expect, test } from "vitest";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";

test("a model or resolution named like an object's own property is no price, not the prototype's", () => {
  const prices = createPrices(loadPriceTable());
  const plain = prices.image("nano-core-2", undefined, 1);
  expect(plain.ok).toBe(true);
  for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
    // an unknown resolution takes the model's default, as any unknown one does
    expect(prices.image("nano-core-2", name, 1)).toEqual(plain);
    expect(prices.image(name, "1K", 1)).toEqual({ ok: false, reason: "no_price" });
    expect(prices.video(name, "720p", 5)).toEqual({ ok: false, reason: "no_price" });
    expect(prices.video("video-a-v3-turbo", name, 5)).toEqual({ ok: false, reason: "no_price" });
  }
});
