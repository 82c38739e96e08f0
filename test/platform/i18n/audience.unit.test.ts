import { describe, expect, test } from "vitest";
import {
  AccountTextInGroupError,
  audienceOfChat,
  audienceOfChatId,
  forAudience,
  groupTwins,
  keyFor,
} from "../../../src/platform/i18n/audience";
import { translate } from "../../../src/platform/i18n/i18n";
import { languages } from "../../../src/platform/i18n/language";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);

describe("what a group sees: one rule for every text", () => {
  test("only a private chat is private; groups, supergroups, channels and inline mode are a group", () => {
    expect(audienceOfChat({ type: "private" })).toBe("private");
    for (const type of ["group", "supergroup", "channel"]) expect(audienceOfChat({ type })).toBe("group");
    expect(audienceOfChat(undefined)).toBe("group");
    expect(audienceOfChatId(42)).toBe("private");
    expect(audienceOfChatId(-100123)).toBe("group");
    expect(audienceOfChatId(null)).toBe("group");
  });

  test("in a group, the panel's price line keeps the price and drops the balance", () => {
    const vars = { price: 12, available: 8019 };
    expect(forAudience("private", en)("cv-line-price", vars)).toContain("8,019");
    const group = forAudience("group", en)("cv-line-price", vars);
    expect(group).toContain("12 credits");
    expect(group).not.toMatch(/8,?019|balance/);
    const short = forAudience("group", en)("gen-insufficient", { price: 12, available: 3, missing: 9 });
    expect(short).toContain("12 credits");
    expect(short).not.toMatch(/\b3\b|\b9\b/);
  });

  test("every twin exists in every language and never names the balance", () => {
    for (const language of languages)
      for (const key of groupTwins) {
        const text = translate(language, keyFor("group", key), {
          price: 5,
          available: 8019,
          missing: 7,
          name: "A",
          amount: 100,
        });
        expect(text, `${language} ${key}`).not.toMatch(/8,?019|۸٬?۰۱۹/);
        expect(text).not.toContain(key);
      }
  });

  test("an account text without a twin is refused in a group, so a new feature cannot forget the rule", () => {
    for (const key of [
      "balance",
      "credit-history-title",
      "credit-entry-grant",
      "history-line",
      "buy-packs",
      "buy-paid",
    ]) {
      expect(() => forAudience("group", en)(key, { available: 1 })).toThrow(AccountTextInGroupError);
      expect(keyFor("private", key)).toBe(key);
    }
    // words that say nothing of an account pass unchanged
    expect(keyFor("group", "help")).toBe("help");
  });
});
