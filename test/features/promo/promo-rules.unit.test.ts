import { describe, expect, test } from "vitest";
import { parseNewPromo, promoCodeInStart, promoCodeOf } from "../../../src/features/promo/rules";

describe("promo codes: what a code is and what /promo create takes", () => {
  test("a code is 3 to 32 of A-Z, digits, _ and -, kept in capitals", () => {
    expect(promoCodeOf("spring25")).toBe("SPRING25");
    expect(promoCodeOf(" Black_Friday-2026 ")).toBe("BLACK_FRIDAY-2026");
    for (const bad of ["ab", "x".repeat(33), "SPRING 25", "بهار", "a.b.c", "", undefined])
      expect(promoCodeOf(bad)).toBeUndefined();
  });

  test("a /start payload is a promo code only after promo-", () => {
    expect(promoCodeInStart("promo-spring25")).toBe("SPRING25");
    expect(promoCodeInStart("promo-a")).toBeUndefined();
    expect(promoCodeInStart("r_abc123")).toBeUndefined();
    expect(promoCodeInStart("topup")).toBeUndefined();
  });

  test("create: code, credits, uses, then a number of days and 'new' in either order", () => {
    expect(parseNewPromo(["spring", "50", "100"])).toEqual({
      ok: true,
      promo: { code: "SPRING", credits: 50, maxUses: 100, newUsersOnly: false },
    });
    expect(parseNewPromo(["spring", "50", "100", "new", "30d"])).toEqual({
      ok: true,
      promo: { code: "SPRING", credits: 50, maxUses: 100, days: 30, newUsersOnly: true },
    });
    // Persian digits, as a phone keyboard types them
    expect(parseNewPromo(["bahar", "۵۰", "۱۰", "۷d"])).toMatchObject({
      ok: true,
      promo: { credits: 50, maxUses: 10, days: 7 },
    });
  });

  test("what it refuses, and why", () => {
    expect(parseNewPromo([])).toEqual({ ok: false, problem: "usage" });
    expect(parseNewPromo(["spring", "50"])).toEqual({ ok: false, problem: "usage" });
    expect(parseNewPromo(["spring", "50", "10", "new", "new"])).toEqual({ ok: false, problem: "usage" });
    expect(parseNewPromo(["spring", "50", "10", "soon"])).toEqual({ ok: false, problem: "usage" });
    expect(parseNewPromo(["sp", "50", "10"])).toEqual({ ok: false, problem: "code" });
    expect(parseNewPromo(["spring", "0", "10"])).toEqual({ ok: false, problem: "number" });
    expect(parseNewPromo(["spring", "-5", "10"])).toEqual({ ok: false, problem: "number" });
    expect(parseNewPromo(["spring", "100001", "10"])).toEqual({ ok: false, problem: "number" });
    expect(parseNewPromo(["spring", "5", "1.5"])).toEqual({ ok: false, problem: "number" });
    expect(parseNewPromo(["spring", "5", "10", "0d"])).toEqual({ ok: false, problem: "number" });
    expect(parseNewPromo(["spring", "5", "10", "99999d"])).toEqual({ ok: false, problem: "number" });
  });
});
