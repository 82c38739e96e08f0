import { describe, expect, test } from "vitest";
import { makeReferralCode, referralCodeOf, referralCodeSchema } from "../../../src/features/referrals/code";
import { type NewcomerFacts, referralVerdict } from "../../../src/features/referrals/rules";

describe("invite codes", () => {
  test("are short, URL-safe, prefixed and different each time", () => {
    const codes = new Set(Array.from({ length: 1000 }, () => makeReferralCode()));
    expect(codes.size).toBe(1000);
    for (const code of codes) {
      expect(code).toMatch(/^r_[A-Za-z0-9_-]{12}$/);
      expect(code.length).toBeLessThanOrEqual(64);
      expect(referralCodeOf(code)).toBe(code);
    }
  });

  test("only a prefixed code of Telegram's start-parameter alphabet is an invite", () => {
    for (const other of [
      "",
      "topup",
      "inline",
      "r_",
      "r_a b",
      "r_é",
      "R_abc",
      `r_${"a".repeat(63)}`,
      "x_r_abc",
    ]) {
      expect(referralCodeOf(other), other).toBeUndefined();
    }
    expect(referralCodeOf(undefined)).toBeUndefined();
    expect(referralCodeOf("r_abc-DEF_123")).toBe("r_abc-DEF_123");
    expect(referralCodeSchema.safeParse(`r_${"a".repeat(62)}`).success).toBe(true);
  });
});

describe("who can be invited", () => {
  const newcomer: NewcomerFacts = { referredId: 2, referrerId: 1, hasHistory: false, alreadyReferred: false };

  test("a newcomer through another user's code is accepted", () => {
    expect(referralVerdict(newcomer)).toBe("accepted");
  });

  test("an unknown code, one's own code, a user with a history, or one invited already is refused", () => {
    expect(referralVerdict({ ...newcomer, referrerId: undefined })).toBe("unknown-code");
    expect(referralVerdict({ ...newcomer, referrerId: 2 })).toBe("self");
    expect(referralVerdict({ ...newcomer, hasHistory: true })).toBe("existing-user");
    expect(referralVerdict({ ...newcomer, alreadyReferred: true })).toBe("already-referred");
    // one's own code is refused even for a user the bot knows nothing of
    expect(referralVerdict({ ...newcomer, referrerId: 2, hasHistory: true })).toBe("self");
  });
});
