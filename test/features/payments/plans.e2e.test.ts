import { and, eq, isNotNull, like } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { planPeriodKey, purchaseRefundKey } from "../../../src/domain/credits/entry-keys";
import { defaultImageOptions } from "../../../src/domain/generations/image-options";
import { quote } from "../../../src/domain/generations/quote";
import { createPrices, discounted, loadPriceTable } from "../../../src/domain/pricing/prices";
import { createPlanSubscriptions } from "../../../src/features/payments";
import { generations, ledgerEntries, payments, planSubscriptions } from "../../../src/platform/db/schema";
import { translate } from "../../../src/platform/i18n/i18n";
import { chatMoment } from "../../../src/platform/i18n/moments";
import { adminSuite } from "../../support/admin-suite";
import { eventually, type Harness, startedUser } from "../../support/harness";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);

/** The one plan these tests sell: 250 Stars a month for 300 credits and 20% off. */
const plan = { id: "pro", stars: 250, credits: 300, discount: 20 };
const listPrices = createPrices(loadPriceTable());
const defaultImage = { operation: "image" as const, ...defaultImageOptions() };

describe("monthly plans paid by Stars subscriptions (sandbox: test payments)", () => {
  let h: Harness;
  let admin: TestUser;

  // the worker's own reconciler stays out of the way: the down-bot test starts one with the bot
  adminSuite(
    {
      env: { SANDBOX: "1", PLANS: JSON.stringify([plan]) },
      // the worker's own reconciler stays out of the way: the down-bot test starts one with the bot
      timing: { paymentsReconcileEveryMs: 24 * 3_600_000 },
    },
    (s) => {
      h = s.h;
      admin = s.admin;
    },
  );

  const subscriptionOf = async (userId: number) =>
    (await h.db.db.select().from(planSubscriptions).where(eq(planSubscriptions.userId, userId)))[0];
  const periodGrants = (userId: number) =>
    h.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), like(ledgerEntries.key, `${planPeriodKey("")}%`)));
  const dateOf = (unixSeconds: number) => chatMoment("en", new Date(unixSeconds * 1000)).date;
  const receipts = (user: TestUser, available: number, until: number) =>
    user
      .messages()
      .filter(
        (m) =>
          m.text ===
          [
            en("plan-paid", { plan: plan.id, credits: plan.credits, available, date: dateOf(until) }),
            en("plan-paid-test"),
          ].join("\n"),
      );

  /** /plans, and its Subscribe button's link. */
  async function subscribeLink(user: TestUser): Promise<{ offer: BotMessage; link: string }> {
    const sent = await user.send("/plans");
    const offer = await user.waitFor((m) => m.text?.startsWith(en("plans-title")), { after: sent });
    const button = offer.reply_markup?.inline_keyboard
      .flat()
      .find((b) => b.text === en("plan-subscribe-button", { plan: plan.id, stars: plan.stars }));
    if (!button || !("url" in button)) throw new Error("no Subscribe button with a link");
    return { offer, link: button.url };
  }

  /** A user who subscribed (100 welcome credits + the first period's 300): the subscription's charge id. */
  async function subscriber(): Promise<{ user: TestUser; chargeId: string; until: number }> {
    const user = await startedUser(h);
    const { link } = await subscribeLink(user);
    const paid = await user.pay(link);
    if (!paid.ok) throw new Error("the subscription was not paid");
    const until = paid.message.successful_payment?.subscription_expiration_date ?? 0;
    await eventually(async () => (receipts(user, 400, until).length > 0 ? true : undefined));
    return { user, chargeId: paid.chargeId, until };
  }

  /** `text` sent; the bot's first answer whose text starts with `start`. */
  async function ask(user: TestUser, text: string, start: string): Promise<BotMessage> {
    const sent = await user.send(text);
    return user.waitFor((m) => m.text?.startsWith(start), { after: sent });
  }

  test("/plans offers the plan as a subscription link; paying it starts the plan with its credits, once", async () => {
    const user = await startedUser(h);
    const { offer, link } = await subscribeLink(user);
    expect(offer.text).toContain(
      en("plan-summary", { plan: plan.id, credits: 300, discount: 20, stars: 250 }),
    );
    const call = h.tg.callsOf("createInvoiceLink").at(-1);
    expect(call?.params).toMatchObject({ currency: "XTR", subscription_period: 2_592_000 });
    expect(user.invoiceLink(link)).toMatchObject({ total: 250, subscriptionPeriod: 2_592_000 });

    const paid = await user.pay(link, { deliverTwice: true });
    if (!paid.ok) throw new Error("the subscription was not paid");
    const until = paid.message.successful_payment?.subscription_expiration_date ?? 0;
    expect(paid.message.successful_payment).toMatchObject({ is_recurring: true, is_first_recurring: true });
    await eventually(async () => (receipts(user, 400, until).length === 2 ? true : undefined));
    expect(await periodGrants(user.id)).toHaveLength(1);
    expect(await subscriptionOf(user.id)).toMatchObject({
      planId: plan.id,
      subscriptionChargeId: paid.chargeId,
      lastChargeId: paid.chargeId,
      periodEndsAt: new Date(until * 1000),
      canceledAt: null,
    });
    const balance = await ask(user, "/balance", en("balance", { available: 400, held: 0 }).split("\n")[0]!);
    expect(balance.text).toContain(en("plan-active-renews", { plan: plan.id, date: dateOf(until) }));
    expect(balance.text).toContain(en("credit-entry-plan", { amount: 300 }));

    // /plans now shows the running plan; an old link paid again is refused at checkout: no second monthly charge
    const shown = await ask(user, "/plans", en("plan-active-renews", { plan: plan.id, date: dateOf(until) }));
    expect(shown.reply_markup?.inline_keyboard.flat().map((b) => b.text)).toEqual([en("plan-cancel-button")]);
    const second = await user.pay(link);
    expect(second).toEqual({ ok: false, reason: "declined", errorMessage: en("plan-already") });
  });

  test("a renewal delivered twice grants the period's credits once and moves the plan's end", async () => {
    const { user, chargeId, until } = await subscriber();
    const [renewed] = user.renewSubscriptions({ deliverTwice: true });
    if (!renewed?.ok) throw new Error("the subscription did not renew");
    const next = renewed.message.successful_payment?.subscription_expiration_date ?? 0;
    expect(next).toBe(until + 30 * 24 * 3600);
    expect(renewed.message.successful_payment?.is_first_recurring).toBeUndefined();
    await eventually(async () => (receipts(user, 700, next).length === 2 ? true : undefined));
    expect(await periodGrants(user.id)).toHaveLength(2);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 700, held: 0 });
    expect(await subscriptionOf(user.id)).toMatchObject({
      subscriptionChargeId: chargeId,
      lastChargeId: renewed.chargeId,
      periodEndsAt: new Date(next * 1000),
    });
  });

  test("cancelled, the plan runs to its end and is not renewed; resumed, it renews again", async () => {
    const { user, chargeId, until } = await subscriber();
    const shown = await ask(user, "/plans", en("plan-active-renews", { plan: plan.id, date: dateOf(until) }));
    await user.press(en("plan-cancel-button"), { message: shown });
    await user.waitFor((m) => m.text === en("plan-cancelled", { plan: plan.id, date: dateOf(until) }), {
      after: shown,
    });
    expect(h.tg.callsOf("editUserStarSubscription").at(-1)?.params).toMatchObject({
      user_id: user.id,
      telegram_payment_charge_id: chargeId,
      is_canceled: true,
    });
    const balance = await ask(user, "/balance", en("balance", { available: 400, held: 0 }).split("\n")[0]!);
    expect(balance.text).toContain(en("plan-active-ends", { plan: plan.id, date: dateOf(until) }));

    // resumed and cancelled again from the same /plans: both reach Telegram
    const cancelled = await ask(
      user,
      "/plans",
      en("plan-active-ends", { plan: plan.id, date: dateOf(until) }),
    );
    await user.press(en("plan-resume-button"), { message: cancelled });
    await user.waitFor((m) => m.text === en("plan-resumed", { plan: plan.id, date: dateOf(until) }), {
      after: cancelled,
    });
    expect((await subscriptionOf(user.id))?.canceledAt).toBeNull();
    const resumed = await ask(
      user,
      "/plans",
      en("plan-active-renews", { plan: plan.id, date: dateOf(until) }),
    );
    await user.press(en("plan-cancel-button"), { message: resumed });
    await user.waitFor((m) => m.text === en("plan-cancelled", { plan: plan.id, date: dateOf(until) }), {
      after: resumed,
    });
    // an old Cancel pressed again changes nothing
    await user.press(en("plan-cancel-button"), { message: shown });
    expect(h.tg.callsOf("editUserStarSubscription").filter((c) => c.params.user_id === user.id)).toHaveLength(
      3,
    );

    // the month passes: Telegram does not charge a cancelled subscription, and nothing is granted
    expect(user.renewSubscriptions()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await periodGrants(user.id)).toHaveLength(1);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 400 });
  });

  test("a refunded period takes back its credits and ends the plan", async () => {
    const { user, chargeId } = await subscriber();
    const sent = await admin.send(`/refund ${chargeId}`);
    await admin.waitFor((m) => Boolean(m.text?.includes(chargeId)), { after: sent });
    await user.waitFor((m) => m.text === en("refund-user-notice", { stars: 250, reversed: 300 }));
    const [row] = await h.db.db.select().from(payments).where(eq(payments.telegramChargeId, chargeId));
    expect(row).toMatchObject({ state: "refunded", reversedCredits: 300 });
    const taken = await h.db.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.key, purchaseRefundKey(chargeId)));
    expect(taken).toHaveLength(1);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 100 });
    expect(await createPlanSubscriptions(h.runtime.db, []).active(user.id)).toBeUndefined();
    const balance = await ask(user, "/balance", en("balance", { available: 100, held: 0 }).split("\n")[0]!);
    expect(balance.text).not.toContain("📅");
  });

  test("a running plan takes its discount off every request: the price shown, held and charged, and said in the summary", async () => {
    const { user } = await subscriber();
    const list = quote(listPrices, defaultImage);
    if (!list.ok) throw new Error("no list price for the default image");
    const price = discounted(list.credits, plan.discount);
    expect(price).toBeLessThan(list.credits);
    const sent = await user.send("/image a lighthouse at dusk");
    const offer = await user.waitFor(
      (m) => Boolean(m.text?.includes(en("cv-line-plan-discount", { discount: 20 }))),
      {
        after: sent,
      },
    );
    expect(offer.text).toContain(en("cv-line-price", { price, available: 400 }));
    await user.press(/✅/, { message: offer });
    const [made] = await eventually(async () => {
      const rows = await h.db.db
        .select()
        .from(generations)
        .where(and(eq(generations.userId, user.id), isNotNull(generations.charged)));
      return rows.length > 0 ? rows : undefined;
    });
    expect(made).toMatchObject({ price, discount: 20, charged: price });
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 400 - price, held: 0 });

    // without a plan: the list price, and no discount line
    const other = await startedUser(h);
    const plain = await other.send("/image a lighthouse at dusk");
    const listed = await other.waitFor((m) => Boolean(m.text?.includes("💳")), { after: plain });
    expect(listed.text).toContain(en("cv-line-price", { price: list.credits, available: 100 }));
    expect(listed.text).not.toContain("📅");
  });

  test("a renewal paid while the bot is down, its update lost, is granted once by the reconciler as the bot starts", async () => {
    const { user, chargeId, until } = await subscriber();
    await h.stopRuntime();
    const [renewed] = user.renewSubscriptions({ loseUpdate: true });
    if (!renewed?.ok) throw new Error("the subscription did not renew");
    const next = until + 30 * 24 * 3600;
    await h.startRuntime();
    const credited = () =>
      user.messages().filter((m) => m.text === en("reconcile-credited", { stars: 250, credits: 300 }));
    await eventually(async () => (credited().length > 0 ? true : undefined));
    const [row] = await h.db.db
      .select()
      .from(payments)
      .where(eq(payments.telegramChargeId, renewed.chargeId));
    expect(row).toMatchObject({ source: "reconciler", credits: 300, state: "paid" });
    expect(await subscriptionOf(user.id)).toMatchObject({
      subscriptionChargeId: chargeId,
      lastChargeId: renewed.chargeId,
      periodEndsAt: new Date(next * 1000),
    });

    // the lost update arriving after all grants nothing more
    user.deliverLate(renewed.message);
    await eventually(async () => (receipts(user, 700, next).length > 0 ? true : undefined));
    expect(await periodGrants(user.id)).toHaveLength(2);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 700 });
    expect(credited()).toHaveLength(1);
  });
});
