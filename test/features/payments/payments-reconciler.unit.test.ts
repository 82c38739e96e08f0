import { describe, expect, test } from "vitest";
import { makePayload } from "../../../src/features/payments/packs";
import { type PaymentReconcilerDeps, paymentReconciler } from "../../../src/features/payments/reconciler";
import { translateFor } from "../../../src/platform/i18n/i18n";
import { systemClock } from "../../../src/platform/lib/clock";
import { createLogger } from "../../../src/platform/lib/logger";

const buyer = { id: 42, is_bot: false, first_name: "Ada" };
const now = () => Math.floor(Date.now() / 1000);

/** Telegram's getStarTransactions over `transactions` (newest first), paged as asked. */
function starsApi(transactions: unknown[]) {
  const pages: Array<{ offset: number; limit: number }> = [];
  const api: PaymentReconcilerDeps["api"] = {
    getStarTransactions: (async (other?: { offset?: number; limit?: number }) => {
      const offset = other?.offset ?? 0;
      const limit = other?.limit ?? 100;
      pages.push({ offset, limit });
      return { transactions: transactions.slice(offset, offset + limit) };
    }) as PaymentReconcilerDeps["api"]["getStarTransactions"],
    sendMessage: (async () => {
      throw new Error("nobody is told in these tests");
    }) as PaymentReconcilerDeps["api"]["sendMessage"],
  };
  return { api, pages };
}

function reconcilerOver(transactions: unknown[]) {
  const granted: string[] = [];
  const alerts: Array<Record<string, string | number>> = [];
  const lines: string[] = [];
  const { api, pages } = starsApi(transactions);
  const reconciler = paymentReconciler({
    api,
    payments: {
      byCharge: async () => undefined,
      recordPaid: async (input) => {
        granted.push(input.telegramChargeId);
        throw new Error("stop here: the grant itself is the store's (tested end to end)");
      },
      refund: async () => ({ kind: "missing" }),
    },
    users: { get: async () => undefined, reachablePrivately: async () => false },
    t: translateFor,
    alert: async (_kind, vars) => {
      alerts.push(vars);
    },
    clock: systemClock,
    logger: createLogger("warn", { write: (line: string) => void lines.push(line) }),
    sandbox: false,
  });
  return { reconciler, granted, alerts, lines, pages };
}

const incoming = (id: string, payload: string, amount = 50, date = now()) => ({
  id,
  amount,
  date,
  source: { type: "user", transaction_type: "invoice_payment", user: buyer, invoice_payload: payload },
});

describe("the payments reconciler's reading of Stars transactions", () => {
  test("a payment whose payload is none of our invoices is never granted: warned and the admins told, once", async () => {
    const { reconciler, granted, alerts, lines } = reconcilerOver([
      incoming("ch-junk", "not-our-payload"),
      // ours in form, but made for another user
      incoming("ch-other", makePayload({ product: "pack", id: "s", credits: 50, stars: 50, userId: 7 })),
      // ours, but the amount paid is not the invoice's
      incoming(
        "ch-amount",
        makePayload({ product: "pack", id: "s", credits: 50, stars: 50, userId: buyer.id }),
        1,
      ),
    ]);
    const first = await reconciler.reconcile();
    expect(first.unreadable.sort()).toEqual(["ch-amount", "ch-junk", "ch-other"]);
    expect(granted).toEqual([]);
    expect(alerts.map((a) => a.charge).sort()).toEqual(["ch-amount", "ch-junk", "ch-other"]);
    expect(lines.filter((l) => l.includes("matches no invoice of ours"))).toHaveLength(3);

    await reconciler.reconcile();
    expect(granted).toEqual([]);
    expect(alerts).toHaveLength(3);
  });

  test("pages of 100 are read until the lookback is passed; other kinds of transaction are left alone", async () => {
    const payload = makePayload({ product: "pack", id: "s", credits: 50, stars: 50, userId: buyer.id });
    const recent = Array.from({ length: 150 }, (_, i) => incoming(`ch-${i}`, payload, 50, now() - i));
    const withdrawal = { id: "w-1", amount: 500, date: now(), receiver: { type: "fragment" } };
    const paidMedia = {
      id: "pm-1",
      amount: 5,
      date: now(),
      source: { type: "user", transaction_type: "paid_media_payment", user: buyer },
    };
    const old = incoming("ch-old", payload, 50, now() - 8 * 24 * 3600);
    const { reconciler, granted, pages } = reconcilerOver([withdrawal, paidMedia, ...recent, old]);
    await reconciler.reconcile();
    expect(pages).toEqual([
      { offset: 0, limit: 100 },
      { offset: 100, limit: 100 },
    ]);
    expect(granted).toHaveLength(150);
    expect(granted).not.toContain("ch-old");
    expect(granted).not.toContain("pm-1");
    expect(granted).not.toContain("w-1");
  });

  test("oldest first (the order the Bot API's 'chronological' may mean): old pages are skipped, never a stop", async () => {
    const payload = makePayload({ product: "pack", id: "s", credits: 50, stars: 50, userId: buyer.id });
    const old = Array.from({ length: 120 }, (_, i) =>
      incoming(`old-${i}`, payload, 50, now() - 30 * 24 * 3600 + i),
    );
    const recent = Array.from({ length: 30 }, (_, i) => incoming(`new-${i}`, payload, 50, now() - 60 + i));
    const { reconciler, granted, pages } = reconcilerOver([...old, ...recent]);
    await reconciler.reconcile();
    expect(pages).toEqual([
      { offset: 0, limit: 100 },
      { offset: 100, limit: 100 },
    ]);
    expect(granted).toEqual(recent.map((t) => t.id));
  });
});
