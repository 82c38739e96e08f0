import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { TestUser } from "../../../sandbox/playground/telegram";
import { translate } from "../../../src/platform/i18n/i18n";
import { type Harness, startedUser, startHarness } from "../../support/harness";
import { plain } from "../../support/messages";

const t = (language: "en" | "fa", key: string, vars?: Record<string, string | number>) =>
  translate(language, key, vars);
const welcome = 100;
/** The first user a fresh stand-in makes has this id: the admin of these tests. */
const adminId = 5_000_000_001;

/** Promo codes through the bot: the admin's /promo, a user's /redeem and promo link, /balance and /stats. */
describe("promo codes end to end", () => {
  let h: Harness;
  let admin: TestUser;

  beforeAll(async () => {
    h = await startHarness({ env: { WELCOME_CREDITS: String(welcome), ADMIN_IDS: String(adminId) } });
    admin = h.tg.user({ started: true });
    expect(admin.id).toBe(adminId);
  }, 60_000);
  afterAll(async () => h?.stop());
  afterEach(async () => {
    expect(await h.runtime.ledger.audit()).toEqual([]);
  });

  /** `user` sends `text`; the bot's first text answer to it. */
  async function asks(user: TestUser, text: string): Promise<string> {
    const sent = await user.send(text);
    return (await user.waitFor((m) => Boolean(m.text), { after: sent })).text ?? "";
  }
  const available = async (user: TestUser) => (await h.runtime.ledger.account(user.id)).available;

  test("an admin creates a code and gets its link; users redeem it by /redeem and by the link, once each", async () => {
    const created = await asks(admin, "/promo create spring25 50 2");
    const link = /https:\/\/t\.me\/\w+\?start=promo-SPRING25/.exec(created)?.[0];
    expect(link, created).toBeDefined();
    expect(created).toBe(t("en", "promo-created", { code: "SPRING25", link: link! }));
    expect(await asks(admin, "/promo create SPRING25 10 10")).toBe(
      t("en", "promo-taken", { code: "SPRING25" }),
    );

    const grantedMetric = async () => {
      const all = await h.runtime.metrics.registry.getSingleMetric("msb_credits_total")?.get();
      return all?.values.find((v) => v.labels.movement === "granted")?.value ?? 0;
    };
    const grantedBefore = await grantedMetric();
    const first = await startedUser(h);
    expect(await asks(first, "/redeem spring25")).toBe(
      t("en", "promo-granted", { code: "SPRING25", credits: 50, available: welcome + 50 }),
    );
    expect(await asks(first, "/redeem SPRING25")).toBe(t("en", "promo-already", { code: "SPRING25" }));
    expect(await available(first)).toBe(welcome + 50);

    // a newcomer opens the link: the welcome, then the code's credits
    const newcomer = h.tg.user({ language: "fa" });
    const sent = await newcomer.send("/start promo-SPRING25");
    const granted = t("fa", "promo-granted", { code: "SPRING25", credits: 50, available: welcome + 50 });
    await newcomer.waitFor((m) => m.text === granted, { after: sent });
    expect(await available(newcomer)).toBe(welcome + 50);

    // the two redemptions count as granted credits in /metrics (the welcome credits too: 2 × 100)
    expect((await grantedMetric()) - grantedBefore).toBe(2 * 50 + 2 * welcome);

    // its two uses are taken
    const late = await startedUser(h);
    expect(await asks(late, "/redeem SPRING25")).toBe(t("en", "promo-used-up", { code: "SPRING25" }));
    expect(await available(late)).toBe(welcome);

    // /balance explains the grant
    const balance = await asks(first, "/balance");
    expect(plain(balance)).toContain(t("en", "credit-entry-promo", { amount: 50 }));

    // /promo list and /stats show the code with its redemptions and the credits it gave
    const line = t("en", "promo-list-line", {
      code: "SPRING25",
      credits: 50,
      used: 2,
      maxUses: 2,
      given: 100,
      state: t("en", "promo-state-running"),
    });
    expect(await asks(admin, "/promo list")).toContain(line);
    const sentStats = await admin.send("/stats");
    const stats = await admin.waitFor((m) => m.text?.includes(t("en", "stats-title")) === true, {
      after: sentStats,
    });
    expect(stats.text).toContain(`${t("en", "stats-promo-title")}\n${line}`);
  });

  test("an ended code, an unknown one, a code for new users only, and the usage", async () => {
    const user = await startedUser(h);
    expect(await asks(admin, "/promo create ENDME 5 10 7d")).toContain("ENDME");
    expect(await asks(admin, "/promo end endme")).toBe(t("en", "promo-ended-now", { code: "ENDME" }));
    expect(await asks(admin, "/promo end ENDME")).toBe(t("en", "promo-not-found", { code: "ENDME" }));
    expect(await asks(user, "/redeem ENDME")).toBe(t("en", "promo-ended", { code: "ENDME" }));
    expect(await asks(user, "/redeem NOPE42")).toBe(t("en", "promo-unknown", { code: "NOPE42" }));
    expect(await asks(user, "/redeem")).toBe(t("en", "promo-redeem-usage"));

    await asks(admin, "/promo create NEWBIES 20 10 new");
    expect(await asks(user, "/redeem NEWBIES")).toBe(t("en", "promo-not-new", { code: "NEWBIES" }));
    const newcomer = h.tg.user({ language: "en" });
    const sent = await newcomer.send("/start promo-newbies");
    await newcomer.waitFor(
      (m) => m.text === t("en", "promo-granted", { code: "NEWBIES", credits: 20, available: welcome + 20 }),
      { after: sent },
    );
    expect(await available(user)).toBe(welcome);

    // the admin's mistakes are explained; nothing is made
    expect(await asks(admin, "/promo")).toBe(t("en", "promo-usage"));
    expect(await asks(admin, "/promo end")).toBe(t("en", "promo-usage"));
    expect(await asks(admin, "/promo create x 5 10")).toBe(t("en", "promo-bad-code"));
    expect(await asks(admin, "/promo create GOODCODE 0 10")).toBe(
      t("en", "promo-bad-number", { maxCredits: 100_000, maxUses: 1_000_000 }),
    );
    expect(await asks(admin, "/redeem GOODCODE")).toBe(t("en", "promo-unknown", { code: "GOODCODE" }));
  });

  test("/promo is the admins' only: anyone else learns nothing of it", async () => {
    const user = await startedUser(h);
    const answer = await asks(user, "/promo create MINE 1000 1000");
    expect(answer).not.toContain("MINE");
    expect(await asks(user, "/redeem MINE")).toBe(t("en", "promo-unknown", { code: "MINE" }));
    expect(await available(user)).toBe(welcome);
  });
});
