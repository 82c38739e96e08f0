import { and, eq } from "drizzle-orm";
import { Api } from "grammy";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { TestUser } from "../../../sandbox/playground/telegram";
import { purchaseRefundKey } from "../../../src/domain/credits/entry-keys";
import { paymentReconciler } from "../../../src/features/payments/reconciler";
import { createPaymentStore } from "../../../src/features/payments/store";
import { ledgerEntries, payments, users } from "../../../src/platform/db/schema";
import { translate, translateFor } from "../../../src/platform/i18n/i18n";
import { createLogger } from "../../../src/platform/lib/logger";
import { eventually, type Harness, startedUser, startHarness } from "../../support/harness";
import { invoiceFor } from "../../support/payments";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);
describe("the payments reconciler finds payments whose update was lost", () => {
  let h: Harness;
  const alerts: Array<Record<string, string | number>> = [];

  beforeAll(async () => {
    // the worker's own reconciler runs every 200 ms of real time
    h = await startHarness({ env: { SANDBOX: "1" }, timing: { paymentsReconcileEveryMs: 20_000 } });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });
  afterEach(async () => {
    expect(await h.runtime.ledger.audit()).toEqual([]);
  });

  /** A second reconciler over the same database and Telegram, run by the test when it chooses. */
  function ownReconciler() {
    return paymentReconciler({
      api: new Api(h.tg.token, { apiRoot: h.tg.apiRoot }),
      payments: createPaymentStore(h.runtime.db, h.runtime.ledger),
      users: h.runtime.users,
      t: translateFor,
      alert: async (_kind, vars) => {
        alerts.push(vars);
      },
      clock: h.clock,
      logger: createLogger("silent"),
      sandbox: true,
    });
  }

  const rowsOf = (userId: number) => h.db.db.select().from(payments).where(eq(payments.userId, userId));
  const purchasesOf = (userId: number) =>
    h.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, "purchase")));
  const credited = (user: TestUser, stars: number, credits: number) =>
    user.messages().filter((m) => m.text === en("reconcile-credited", { stars, credits }));

  test("a payment whose update was lost is granted by the reconciler, once however often it runs", async () => {
    const user = await startedUser(h);
    const paid = await user.pay(await invoiceFor(user, 50), { loseUpdate: true });
    if (!paid.ok) throw new Error("the payment did not go through");

    await eventually(async () => (credited(user, 50, 50).length > 0 ? true : undefined));
    const rows = await rowsOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      telegramChargeId: paid.chargeId,
      source: "reconciler",
      state: "paid",
      credits: 50,
      totalAmount: 50,
      packId: "s",
      test: true,
    });

    // two more rounds, beside the worker's own: nothing more is granted or said
    const reconciler = ownReconciler();
    expect((await reconciler.reconcile()).granted).not.toContain(paid.chargeId);
    expect((await reconciler.reconcile()).granted).not.toContain(paid.chargeId);
    expect(await rowsOf(user.id)).toHaveLength(1);
    expect(await purchasesOf(user.id)).toHaveLength(1);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 150, held: 0 });
    expect(credited(user, 50, 50)).toHaveLength(1);
  });

  test("the lost update arriving late, after the reconciler granted the payment, grants nothing more", async () => {
    const user = await startedUser(h);
    const paid = await user.pay(await invoiceFor(user, 140), { loseUpdate: true });
    if (!paid.ok) throw new Error("the payment did not go through");
    await eventually(async () => (credited(user, 140, 160).length > 0 ? true : undefined));

    user.deliverLate(paid.message);
    const receipt = en("buy-paid-test", { credits: 160, available: 260 });
    await user.waitFor((m) => m.text === receipt);
    await h.tg.idle();

    const rows = await rowsOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ telegramChargeId: paid.chargeId, source: "reconciler" });
    expect(await purchasesOf(user.id)).toHaveLength(1);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 260 });
  });

  test("a refund made elsewhere, of a user banned since, is reversed once: by its update or by the reconciler", async () => {
    const user = await startedUser(h);
    const paid = await user.pay(await invoiceFor(user, 50));
    if (!paid.ok) throw new Error("the payment did not go through");
    await user.waitFor((m) => m.text === en("buy-paid-test", { credits: 50, available: 150 }));
    // a ban stops the user's updates, but not money that already moved: the refund is still reversed
    await h.db.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, user.id));
    const answer = await h.tg.call("refundStarPayment", {
      user_id: user.id,
      telegram_payment_charge_id: paid.chargeId,
    });
    expect(answer.ok).toBe(true);

    const row = await eventually(async () => {
      const [found] = await rowsOf(user.id);
      return found?.state === "refunded" ? found : undefined;
    });
    expect(row).toMatchObject({
      telegramChargeId: paid.chargeId,
      reversedCredits: 50,
      notReversedCredits: 0,
    });
    const reconciler = ownReconciler();
    expect((await reconciler.reconcile()).reversed).not.toContain(paid.chargeId);
    expect((await reconciler.reconcile()).reversed).not.toContain(paid.chargeId);
    const refunds = await h.db.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.key, purchaseRefundKey(paid.chargeId)));
    expect(refunds).toHaveLength(1);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 100 });
  });

  test("a payment whose update arrives is recorded by the update; a reconciler round after it grants nothing more", async () => {
    const user = await startedUser(h);
    const invoice = await invoiceFor(user, 50);
    // The worker's own reconciler runs every 200 ms and would record the payment itself if it
    // listed it before the update was handled: Telegram holds every list of transactions until
    // the update is in, so that the update records it, on any machine.
    const listing = h.tg.hold("getStarTransactions");
    let paid: Awaited<ReturnType<TestUser["pay"]>>;
    try {
      paid = await user.pay(invoice);
      if (!paid.ok) throw new Error("the payment did not go through");
      await user.waitFor((m) => m.text === en("buy-paid-test", { credits: 50, available: 150 }));
    } finally {
      listing.release();
    }
    const chargeId = paid.chargeId;

    const [row] = await rowsOf(user.id);
    expect(row).toMatchObject({
      telegramChargeId: chargeId,
      source: "update",
      state: "paid",
      credits: 50,
      totalAmount: 50,
    });
    // the reconciler lists the payment (Telegram answers again) and finds it recorded
    const round = await ownReconciler().reconcile();
    expect(round.granted).not.toContain(chargeId);
    expect(await rowsOf(user.id)).toEqual([row]);
    expect(await purchasesOf(user.id)).toHaveLength(1);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 150, held: 0 });
    expect(credited(user, 50, 50)).toEqual([]);
  });
});
