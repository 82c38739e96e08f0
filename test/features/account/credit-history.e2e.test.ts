import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { TestUser } from "../../../sandbox/playground/telegram";
import { balanceEntries } from "../../../src/features/account/balance";
import { translate } from "../../../src/platform/i18n/i18n";
import type { Language } from "../../../src/platform/i18n/language";
import { generationIn, type Harness, requestImage, startedUser, startHarness } from "../../support/harness";

const welcome = 100;

describe("credit history end to end", () => {
  let h: Harness;
  let charges = 0;

  beforeAll(async () => {
    h = await startHarness({ env: { WELCOME_CREDITS: String(welcome) } });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });
  afterEach(async () => {
    expect(await h.runtime.ledger.audit()).toEqual([]);
  });

  async function balanceReply(user: TestUser) {
    const sent = await user.send("/balance");
    return user.waitFor((m) => Boolean(m.text), { after: sent });
  }
  const balanceText = async (user: TestUser) => (await balanceReply(user)).text ?? "";

  /** Without Fluent's bidi isolation marks (Persian wraps each variable in them) and right-to-left marks. */
  const plain = (text: string) => text.replace(/[\u200f\u2066-\u2069]/g, "");

  /** The movement lines of /balance, without their dates, newest first. */
  const movements = (text: string) =>
    plain(text)
      .split("\n")
      .filter((line) => /^\p{Nd}{4}-\p{Nd}{2}-\p{Nd}{2} \p{Nd}{2}:\p{Nd}{2} · /u.test(line))
      .map((line) => line.slice(line.indexOf(" · ") + 3));

  /** A Stars purchase as the payment store records it (the /buy checkout's own call). */
  async function purchase(user: TestUser, credits: number) {
    const telegramChargeId = `history-charge-${++charges}-${Date.now()}`;
    await h.runtime.payments.recordPaid({
      userId: user.id,
      telegramChargeId,
      currency: "XTR",
      totalAmount: credits,
      credits,
      payload: "pack:test",
      source: "update",
      test: true,
    });
    return telegramChargeId;
  }

  for (const language of ["en", "fa"] as Language[]) {
    test(`/balance lists a request, a purchase and its refund, newest first (${language})`, async () => {
      const t = (key: string, vars?: Record<string, string | number>) => translate(language, key, vars);
      const user = await startedUser(h, language);
      await requestImage(user);
      const g = await generationIn(h, user.id, "delivered");
      const charge = await purchase(user, 50);
      expect(await h.runtime.payments.refund(charge)).toMatchObject({ kind: "reversed", reversed: 50 });

      const reply = await balanceReply(user);
      const text = reply.text ?? "";
      const account = await h.runtime.ledger.account(user.id);
      expect(account).toEqual({ userId: user.id, available: welcome - g.price, held: 0 });
      expect(text.startsWith(t("balance", { available: account.available, held: 0 }))).toBe(true);
      expect(text).toContain(t("credit-history-title"));
      // a request's one line (its last movement) says which request it was: its kind and its words
      const request = t("credit-request", { operation: t("op-image"), words: "a quiet harbour" });
      expect(plain(request)).toContain(`${plain(t("op-image"))} `);
      expect(plain(request)).toContain("a quiet harbour");
      expect(movements(text)).toEqual(
        [
          t("credit-entry-purchase-refund", { amount: 50 }),
          t("credit-entry-purchase", { amount: 50 }),
          t("credit-entry-charge", { amount: g.price, back: 0, request }),
          t("credit-entry-welcome", { amount: welcome }),
        ].map(plain),
      );
      // dates in the language's digits: Persian ۰ to ۹
      const dated = plain(text)
        .split("\n")
        .filter((line) => /^\p{Nd}{4}-/u.test(line));
      expect(dated).toHaveLength(4);
      for (const line of dated)
        expect(line).toMatch(language === "fa" ? /^[۰-۹]{4}-[۰-۹]{2}-/ : /^\d{4}-\d{2}-/);
      // where to buy more: a button that opens the packs
      expect(reply.reply_markup?.inline_keyboard.flat().map((b) => b.text)).toEqual([t("buy-button")]);
      await user.press(t("buy-button"), { message: reply });
      await user.waitFor((m) => m.text?.startsWith(t("buy-packs", { available: account.available })), {
        after: reply,
      });

      // /history says what the request cost
      const sent = await user.send("/history");
      const history = await user.waitFor((m) => m.text?.startsWith(t("history-title")), { after: sent });
      expect(history.text).toContain(t("history-cost-charged", { cost: g.price }));
    });
  }

  test("/balance shows only the latest entries, and a referral bonus as a bonus", async () => {
    const user = await startedUser(h);
    for (let i = 1; i <= balanceEntries + 2; i++) {
      await h.runtime.ledger.grant({ userId: user.id, amount: i, key: `history-grant-${user.id}-${i}` });
    }
    await h.runtime.ledger.grant({ userId: user.id, amount: 7, key: `referral-${user.id}-referred` });
    const lines = movements(await balanceText(user));
    expect(lines).toHaveLength(balanceEntries);
    expect(lines[0]).toBe(translate("en", "credit-entry-referral-bonus", { amount: 7 }));
    expect(lines[1]).toBe(translate("en", "credit-entry-grant", { amount: balanceEntries + 2 }));
    expect(lines.at(-1)).toBe(translate("en", "credit-entry-grant", { amount: 4 }));
  });

  test("a user with no movements yet reads so", async () => {
    const user = h.tg.user();
    const text = await balanceText(user);
    expect(text).toContain(translate("en", "credit-history-empty"));
    expect(movements(text)).toEqual([]);
  });
});
