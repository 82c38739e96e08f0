import { describe, expect, test } from "vitest";
import { shorten } from "../../../src/platform/lib/shorten";

describe("shorten", () => {
  test("text within the limit is kept as it is", () => {
    expect(shorten("a cat", 5)).toBe("a cat");
  });

  test("longer text is cut to the limit in UTF-16 units, ellipsis included", () => {
    const cut = shorten("abcdefghij", 5);
    expect(cut).toBe("abcd…");
    expect(cut.length).toBe(5);
  });

  test("a character outside the BMP is never split", () => {
    // each 🐱 is two UTF-16 units: two whole ones and the ellipsis fit in six
    const cut = shorten("🐱🐱🐱🐱🐱🐱", 6);
    expect(cut).toBe("🐱🐱…");
    expect(cut.length).toBeLessThanOrEqual(6);
    expect(encodeURIComponent(cut)).toBe(encodeURIComponent("🐱🐱…")); // throws on a lone surrogate
  });
});
