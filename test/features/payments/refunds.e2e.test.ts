import { and, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import type { TestUser } from "../../../sandbox/playground/telegram";
import { purchaseRefundKey } from "../../../src/domain/credits/entry-keys";
import { ledgerEntries, payments } from "../../../src/platform/db/schema";
import { translate } from "../../../src/platform/i18n/i18n";
import { adminSuite } from "../../support/admin-suite";
import { eventually, generationIn, type Harness, requestImage, startedUser } from "../../support/harness";
import { invoiceFor } from "../../support/payments";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);

describe("refunds of Stars payments", () => {
  let h: Harness;
  let admin: TestUser;

  // no welcome credits: what a user has is what they bought
  adminSuite({ env: { SANDBOX: "1", WELCOME_CREDITS: "0" } }, (s) => {
    h = s.h;
    admin = s.admin;
  });

  /** A user who bought the 50-Star pack (50 credits) and got the receipt: the charge id. */
  async function buyer(): Promise<{ user: TestUser; chargeId: string }> {
    const user = await startedUser(h);
    const paid = await user.pay(await invoiceFor(user, 50));
    if (!paid.ok) throw new Error("the payment did not go through");
    await user.waitFor((m) => m.text === en("buy-paid-test", { credits: 50, available: 50 }));
    return { user, chargeId: paid.chargeId };
  }

  /** The admin sends `text`; the bot's first answer to it. */
  async function adminAsks(text: string): Promise<string | undefined> {
    const sent = await admin.send(text);
    return (await admin.waitFor((m) => Boolean(m.text), { after: sent })).text;
  }

  const rowOf = async (chargeId: string) =>
    (await h.db.db.select().from(payments).where(eq(payments.telegramChargeId, chargeId)))[0];
  const refundEntriesOf = (userId: number, chargeId: string) =>
    h.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.key, purchaseRefundKey(chargeId))));
  const refundCalls = (chargeId: string) =>
    h.tg.callsOf("refundStarPayment").filter((c) => c.params.telegram_payment_charge_id === chargeId);
  const noticesTo = (user: TestUser, text: string) => user.messages().filter((m) => m.text === text);

  test("/refund gives the Stars back and reverses the credits once; a second /refund is refused", async () => {
    const { user, chargeId } = await buyer();
    expect(await adminAsks(`/refund ${chargeId}`)).toBe(
      en("refund-done", { charge: chargeId, user: user.id, stars: 50, reversed: 50 }),
    );
    const notice = en("refund-user-notice", { stars: 50, reversed: 50 });
    await user.waitFor((m) => m.text === notice);
    await h.tg.idle();

    expect(await rowOf(chargeId)).toMatchObject({
      state: "refunded",
      reversedCredits: 50,
      notReversedCredits: 0,
    });
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 0, held: 0 });

    expect(await adminAsks(`/refund ${chargeId}`)).toBe(
      en("refund-already", { charge: chargeId, reversed: 50 }),
    );
    await h.tg.idle();
    expect(refundCalls(chargeId)).toHaveLength(1);
    expect(await refundEntriesOf(user.id, chargeId)).toHaveLength(1);
    // the refunded_payment echo of the admin's refund said nothing more
    expect(noticesTo(user, notice)).toHaveLength(1);
  });

  test("a refund after some credits were spent takes back what is there and says what could not be", async () => {
    const { user, chargeId } = await buyer();
    await requestImage(user);
    await generationIn(h, user.id, "delivered");
    const { available, held } = await h.runtime.ledger.account(user.id);
    expect(held).toBe(0);
    const spent = 50 - available;
    expect(spent).toBeGreaterThan(0);

    expect(await adminAsks(`/refund ${chargeId}`)).toBe(
      en("refund-done-partly", {
        charge: chargeId,
        user: user.id,
        stars: 50,
        reversed: available,
        missing: spent,
      }),
    );
    await user.waitFor(
      (m) => m.text === en("refund-user-notice-partly", { stars: 50, reversed: available, missing: spent }),
    );
    expect(await rowOf(chargeId)).toMatchObject({
      state: "refunded",
      reversedCredits: available,
      notReversedCredits: spent,
    });
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 0, held: 0 });
  });

  test("a refund made elsewhere (refunded_payment) reverses once, even delivered twice", async () => {
    const { user, chargeId } = await buyer();
    const answer = await h.tg.call("refundStarPayment", {
      user_id: user.id,
      telegram_payment_charge_id: chargeId,
    });
    expect(answer.ok).toBe(true);
    const notice = en("refund-user-notice", { stars: 50, reversed: 50 });
    const told = await user.waitFor((m) => m.text === notice);

    // Telegram delivers the same refunded_payment message again
    const refundedMessage = h.tg
      .chat(user.id)
      ?.messages.map((entry) => entry.message)
      .find((m) => m.refunded_payment?.telegram_payment_charge_id === chargeId);
    if (!refundedMessage) throw new Error("no refunded_payment message in the chat");
    user.deliverLate(refundedMessage);
    // one chat's updates are handled in order: once /help is answered, the repeat has said all it will
    const help = await user.send("/help");
    await user.waitFor((m) => Boolean(m.text?.startsWith(en("help"))), { after: help });
    // the repeat said nothing: no second notice, and no failure either
    expect(user.messages().filter((m) => m.message_id > told.message_id)).toEqual([
      expect.objectContaining({ text: expect.stringContaining(en("help")) }),
    ]);
    // a refund asked again finds it refunded and takes nothing
    expect(await h.runtime.payments.refund(chargeId)).toMatchObject({ kind: "already" });
    expect(await rowOf(chargeId)).toMatchObject({ state: "refunded", reversedCredits: 50 });
    expect(await refundEntriesOf(user.id, chargeId)).toHaveLength(1);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 0 });
    expect(await adminAsks(`/refund ${chargeId}`)).toBe(
      en("refund-already", { charge: chargeId, reversed: 50 }),
    );
  });

  test("a refund that arrives before its payment was recorded fences it: the payment coming later grants nothing", async () => {
    const user = await startedUser(h);
    const paid = await user.pay(await invoiceFor(user, 50), { loseUpdate: true });
    if (!paid.ok) throw new Error("the payment did not go through");
    const answer = await h.tg.call("refundStarPayment", {
      user_id: user.id,
      telegram_payment_charge_id: paid.chargeId,
    });
    expect(answer.ok).toBe(true);
    const fence = await eventually(async () => rowOf(paid.chargeId));
    expect(fence).toMatchObject({ state: "refunded", credits: 0, reversedCredits: 0 });

    // the lost successful_payment comes after all: told of the refund, nothing granted
    user.deliverLate(paid.message);
    await user.waitFor((m) => m.text === en("refund-user-notice", { stars: 50, reversed: 0 }));
    await h.tg.idle();
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 0, held: 0 });
    const purchases = await h.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, user.id), eq(ledgerEntries.kind, "purchase")));
    expect(purchases).toEqual([]);
  });

  test("Telegram refusing the refund (CHARGE_NOT_FOUND) changes nothing and the admin is told", async () => {
    const { user, chargeId } = await buyer();
    h.tg.failNext("refundStarPayment", { code: 400, description: "Bad Request: CHARGE_NOT_FOUND" });
    expect(await adminAsks(`/refund ${chargeId}`)).toBe(
      en("refund-refused", { charge: chargeId, reason: "Bad Request: CHARGE_NOT_FOUND" }),
    );
    expect(await rowOf(chargeId)).toMatchObject({ state: "paid", reversedCredits: 0 });
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 50 });
  });

  test("/refund of a charge we never recorded, or without one, changes nothing", async () => {
    expect(await adminAsks("/refund stxchNOPE")).toBe(en("refund-unknown-charge", { charge: "stxchNOPE" }));
    expect(await adminAsks("/refund")).toBe(en("refund-usage"));
    expect(await adminAsks("/refund a b")).toBe(en("refund-usage"));
    expect(
      h.tg.callsOf("refundStarPayment").filter((c) => c.params.telegram_payment_charge_id === "stxchNOPE"),
    ).toHaveLength(0);
  });
});
