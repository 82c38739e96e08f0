import { describe, expect, test } from "vitest";
import { chatMoment, inLanguageDigits } from "../../../src/platform/i18n/moments";

describe("moments in the chat's lists (issue 48)", () => {
  const at = new Date("2026-12-06T03:43:59Z");

  test("Persian writes a date in its own digits, in the same Gregorian calendar and order", () => {
    expect(chatMoment("fa", at)).toEqual({ date: "۲۰۲۶-۱۲-۰۶", time: "۰۳:۴۳" });
    expect(inLanguageDigits("fa", "0123456789")).toBe("۰۱۲۳۴۵۶۷۸۹");
  });

  test("English keeps ASCII digits", () => {
    expect(chatMoment("en", at)).toEqual({ date: "2026-12-06", time: "03:43" });
  });
});
