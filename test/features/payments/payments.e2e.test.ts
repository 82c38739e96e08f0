import type { ChildProcess } from "node:child_process";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { ledgerEntries, payments, users } from "../../../src/platform/db/schema";
import { translate } from "../../../src/platform/i18n/i18n";
import { eventually, type Harness, startedUser, startHarness } from "../../support/harness";
import { invoiceFor, isInvoice } from "../../support/payments";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);

async function paymentsOf(h: Harness, userId: number) {
  return h.db.db.select().from(payments).where(eq(payments.userId, userId));
}

async function purchasesOf(h: Harness, userId: number) {
  return h.db.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, "purchase")));
}

describe("buying credits with Stars (sandbox: test payments)", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { SANDBOX: "1" } });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });
  afterEach(async () => {
    expect(await h.runtime.ledger.audit()).toEqual([]);
  });

  test("a pack bought grants once when successful_payment is delivered twice; both copies get the receipt", async () => {
    const user = await startedUser(h);
    const invoice = await invoiceFor(user, 140);
    expect(invoice.invoice).toMatchObject({ currency: "XTR", total_amount: 140 });
    expect(invoice.invoice?.title).toBe(en("buy-invoice-title-test", { credits: 160 }));
    expect(invoice.invoice?.title).toContain("TEST");
    expect(invoice.invoice?.description).toContain("TEST");

    const paid = await user.pay(invoice, { deliverTwice: true });
    expect(paid.ok).toBe(true);
    const receipt = en("buy-paid-test", { credits: 160, available: 260 });
    await eventually(async () =>
      user.messages().filter((m) => m.text === receipt).length === 2 ? true : undefined,
    );
    const rows = await paymentsOf(h, user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      telegramChargeId: paid.ok ? paid.chargeId : "",
      credits: 160,
      totalAmount: 140,
      currency: "XTR",
      packId: "m",
      source: "update",
      state: "paid",
      test: true,
    });
    expect(await purchasesOf(h, user.id)).toHaveLength(1);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 260, held: 0 });
  });

  test("a banned user's checkout is refused and nothing is recorded", async () => {
    const user = await startedUser(h);
    const invoice = await invoiceFor(user, 50);
    await h.db.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, user.id));
    const paid = await user.pay(invoice);
    expect(paid).toEqual({ ok: false, reason: "declined", errorMessage: en("banned-notice") });
    expect(await paymentsOf(h, user.id)).toHaveLength(0);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 100 });
  });

  test("not enough credits at Confirm: the message has a Buy button that leads to an invoice, and paying it grants", async () => {
    const user = await startedUser(h);
    await h.runtime.ledger.takeUpTo({ userId: user.id, amount: 97, key: `test-spend-${user.id}` });
    const sent = await user.send("/image a lighthouse at dusk");
    const offer = await user.waitFor(
      (m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅")),
      { after: sent },
    );
    await user.press(/✅/, { message: offer });
    const short = await eventually(async () =>
      user.messages().find((m) => m.text?.startsWith("Not enough credits") && m.reply_markup !== undefined),
    );
    expect(short.reply_markup?.inline_keyboard.flat().map((b) => b.text)).toEqual([en("buy-button")]);
    await user.press(en("buy-button"), { message: short });
    const packs = await user.waitFor((m) => m.text?.startsWith(en("buy-packs", { available: 3 })), {
      after: short,
    });
    expect(packs.text).toContain(en("buy-packs-test"));
    await user.press(/· 50 ⭐$/, { message: packs });
    const invoice = await user.waitFor(isInvoice, { after: packs });
    const paid = await user.pay(invoice);
    expect(paid.ok).toBe(true);
    await user.waitFor((m) => m.text === en("buy-paid-test", { credits: 50, available: 53 }), {
      after: invoice,
    });
    expect(await paymentsOf(h, user.id)).toHaveLength(1);
  });

  test("/start topup (the inline Top up link) opens the packs; /paysupport and /terms answer", async () => {
    const user = await startedUser(h);
    const sent = await user.send("/start topup");
    const packs = await user.waitFor((m) => m.text?.startsWith(en("buy-packs", { available: 100 })), {
      after: sent,
    });
    expect(packs.reply_markup?.inline_keyboard.flat()).toHaveLength(4);
    const support = await user.send("/paysupport");
    await user.waitFor((m) => m.text === en("paysupport-text"), { after: support });
    const terms = await user.send("/terms");
    await user.waitFor((m) => m.text === en("terms-text"), { after: terms });
  });
});

/** Packs of the spawned bot, then the same packs with `a` repriced and `b` removed. */
const packsBefore = JSON.stringify([
  { id: "a", credits: 30, stars: 25, bonus: 5 },
  { id: "b", credits: 80, stars: 70, bonus: 0 },
]);
const packsAfter = JSON.stringify([{ id: "a", credits: 30, stars: 30, bonus: 5 }]);

describe("the bot process and checkout (real Stars: not a test payment)", () => {
  let h: Harness | undefined;
  let web: ChildProcess | undefined;

  afterEach(async () => {
    try {
      if (h) expect(await h.runtime.ledger.audit()).toEqual([]);
    } finally {
      // the harness kills the process it started, whatever the audit found
      web = undefined;
      await h?.stop();
      h = undefined;
    }
  });

  async function start() {
    h = await startHarness({
      env: { ROLE: "worker", CREDIT_PACKS: packsBefore },
      timing: { updateLeaseMs: 1_500 },
    });
    return h;
  }

  function exitOf(child: ChildProcess) {
    return new Promise<NodeJS.Signals | null>((resolve) =>
      child.once("exit", (_code, signal) => resolve(signal)),
    );
  }

  test("killed between the grant and the receipt: after a restart, one payment, one purchase, and the receipt", {
    timeout: 90_000,
  }, async () => {
    const harness = await start();
    web = await harness.spawnRuntime({ ROLE: "web", MSB_FAULT_POINT: "payment:after-grant" });
    const exited = exitOf(web);
    const user = await startedUser(harness);
    const invoice = await invoiceFor(user, 25);
    expect(invoice.invoice?.title).toBe(en("buy-invoice-title", { credits: 35 }));
    const paid = await user.pay(invoice);
    expect(paid.ok).toBe(true);
    expect(await exited).toBe("SIGKILL");
    web = undefined;
    // granted, not yet told
    expect(await paymentsOf(harness, user.id)).toHaveLength(1);
    const receipt = en("buy-paid", { credits: 35, available: 135 });
    expect(user.messages().some((m) => m.text === receipt)).toBe(false);

    web = await harness.spawnRuntime({ ROLE: "web" });
    await user.waitFor((m) => m.text === receipt, { timeoutMs: 30_000 });
    const rows = await paymentsOf(harness, user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ credits: 35, totalAmount: 25, packId: "a", test: false });
    expect(await purchasesOf(harness, user.id)).toHaveLength(1);
    expect(await harness.runtime.ledger.account(user.id)).toMatchObject({ available: 135, held: 0 });
  });

  test("a pack repriced or removed since its invoice is refused at checkout", {
    timeout: 90_000,
  }, async () => {
    const harness = await start();
    web = await harness.spawnRuntime({ ROLE: "web" });
    const user = await startedUser(harness);
    const repriced = await invoiceFor(user, 25);
    const removed = await invoiceFor(user, 70);
    const stopped = exitOf(web);
    web.kill("SIGTERM");
    await stopped;
    web = await harness.spawnRuntime({ ROLE: "web", CREDIT_PACKS: packsAfter });

    expect(await user.pay(repriced)).toEqual({
      ok: false,
      reason: "declined",
      errorMessage: en("buy-pack-changed"),
    });
    expect(await user.pay(removed)).toEqual({
      ok: false,
      reason: "declined",
      errorMessage: en("buy-pack-gone"),
    });
    expect(await paymentsOf(harness, user.id)).toHaveLength(0);
    // the new price's invoice goes through
    const fresh = await invoiceFor(user, 30);
    expect((await user.pay(fresh)).ok).toBe(true);
    await user.waitFor((m) => m.text === en("buy-paid", { credits: 35, available: 135 }), { after: fresh });
    expect(await purchasesOf(harness, user.id)).toHaveLength(1);
  });
});
