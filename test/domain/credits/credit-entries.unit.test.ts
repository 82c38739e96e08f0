import { describe, expect, test } from "vitest";
import { holdCost } from "../../../src/domain/credits/hold-costs";
import { describeEntry } from "../../../src/domain/credits/recent-entries";

const at = new Date("2025-01-02T03:04:05Z");
const entry = (kind: Parameters<typeof describeEntry>[0]["kind"], key: string, dA: number, dH = 0) =>
  describeEntry({ kind, key, deltaAvailable: dA, deltaHeld: dH, createdAt: at });

describe("ledger entries as the user reads them", () => {
  test("each kind, bonuses and purchase refunds told apart by their key", () => {
    expect(entry("grant", "welcome:7", 20)).toMatchObject({ label: "welcome", amount: 20 });
    expect(entry("grant", "admin-grant:1:2", 5)).toMatchObject({ label: "grant", amount: 5 });
    expect(entry("grant", "referral-7-referrer", 10)).toMatchObject({ label: "referral-bonus", amount: 10 });
    expect(entry("purchase", "purchase-ch1", 50)).toMatchObject({ label: "purchase", amount: 50 });
    expect(entry("hold", "hold:g", -4, 4)).toMatchObject({ label: "hold", amount: 4 });
    expect(entry("charge", "hold:g", 0, -4)).toMatchObject({ label: "charge", amount: 4, back: 0 });
    expect(entry("charge", "hold:g", 1, -4)).toMatchObject({ label: "charge-partial", amount: 3, back: 1 });
    expect(entry("release", "hold:g", 4, -4)).toMatchObject({ label: "release", amount: 4 });
    expect(entry("refund", "undeliverable-g", 4)).toMatchObject({ label: "refund", amount: 4 });
    expect(entry("adjustment", "purchase-refund-ch1", -30)).toMatchObject({
      label: "purchase-refund",
      amount: 30,
    });
    expect(entry("adjustment", "referral-revoke-7-referred", -10)).toMatchObject({
      label: "referral-revoke",
      amount: 10,
    });
    expect(entry("adjustment", "fix-1", -3)).toMatchObject({ label: "adjustment-minus", amount: 3 });
    expect(entry("adjustment", "fix-2", 3)).toMatchObject({ label: "adjustment-plus", amount: 3, at });
  });
});

describe("what a request cost, from its hold", () => {
  test("reserved, charged, charged and refunded, returned, and a free result", () => {
    const h = { amount: 8, chargedAmount: null, refundedAmount: 0 };
    expect(holdCost({ ...h, state: "open" })).toEqual({ kind: "held", amount: 8 });
    expect(holdCost({ ...h, state: "charged", chargedAmount: 6 })).toEqual({
      kind: "charged",
      amount: 6,
      refunded: 0,
    });
    expect(holdCost({ ...h, state: "charged", chargedAmount: 6, refundedAmount: 6 })).toEqual({
      kind: "charged",
      amount: 6,
      refunded: 6,
    });
    expect(holdCost({ ...h, state: "released" })).toEqual({ kind: "returned", amount: 8 });
    expect(holdCost({ ...h, state: "charged", chargedAmount: 0 })).toEqual({ kind: "free" });
  });
});
