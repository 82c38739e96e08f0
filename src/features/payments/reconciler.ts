import type { Api } from "grammy";
import { z } from "zod";
import type { Users } from "../../domain/users/users";
import type { TranslateFor } from "../../platform/i18n/i18n";
import type { Clock } from "../../platform/lib/clock";
import type { Logger } from "../../platform/lib/logger";
import type { AdminAlert } from "../../platform/telegram/operator-alert";
import { paidProduct, parsePayload } from "./packs";
import { refundNotice } from "./refunds";
import type { PaymentStore } from "./store";

/** How far back the bot's Stars transactions are compared with the payments table. */
export const defaultLookbackMs = 7 * 24 * 3_600_000;
const pageSize = 100;
/** a bound on one round: 100 pages of 100 transactions */
const maxPages = 100;

const userPartner = z.object({
  type: z.literal("user"),
  // older Bot API versions leave it out: an invoice payment then
  transaction_type: z.string().optional(),
  user: z.object({ id: z.number().int() }),
  invoice_payload: z.string().optional(),
  // a subscription's payment (first or renewal): its period in seconds
  subscription_period: z.number().int().positive().optional(),
});
const transactionSchema = z.object({
  id: z.string().min(1),
  amount: z.number().int(),
  date: z.number().int(),
  source: z.unknown().optional(),
  receiver: z.unknown().optional(),
});
const pageSchema = z.object({ transactions: z.array(z.unknown()) });

/** A transaction with a user over one of our invoices: paid to us (incoming) or refunded (outgoing). */
interface InvoiceTransaction {
  chargeId: string;
  direction: "paid" | "refunded";
  userId: number;
  stars: number;
  date: number;
  payload: string;
  subscriptionPeriod: number | undefined;
}

function invoiceTransaction(raw: unknown): InvoiceTransaction | undefined {
  const tx = transactionSchema.safeParse(raw);
  if (!tx.success) return undefined;
  const incoming = tx.data.source !== undefined;
  const partner = userPartner.safeParse(incoming ? tx.data.source : tx.data.receiver);
  if (!partner.success) return undefined;
  const type = partner.data.transaction_type ?? "invoice_payment";
  if (type !== "invoice_payment") return undefined;
  return {
    chargeId: tx.data.id,
    direction: incoming ? "paid" : "refunded",
    userId: partner.data.user.id,
    stars: tx.data.amount,
    date: tx.data.date,
    payload: partner.data.invoice_payload ?? "",
    subscriptionPeriod: partner.data.subscription_period,
  };
}

export interface PaymentReconcilerDeps {
  api: Pick<Api, "getStarTransactions" | "sendMessage">;
  payments: Pick<PaymentStore, "byCharge" | "recordPaid" | "refund">;
  users: Pick<Users, "get" | "reachablePrivately">;
  t: TranslateFor;
  alert: AdminAlert;
  clock: Clock;
  logger: Logger;
  /** sandbox or playground: what is found is a test payment */
  sandbox: boolean;
  lookbackMs?: number;
}

export interface ReconcileRound {
  granted: string[];
  reversed: string[];
  unreadable: string[];
}

/**
 * Compares the bot's Stars transactions of the lookback with the payments
 * table: a payment whose successful_payment never arrived is granted (once:
 * the store inserts each charge id once), a refund whose refunded_payment
 * never arrived is reversed (once). A payment whose payload is not one of our
 * invoices is never granted: the admins are told.
 */
export function paymentReconciler(deps: PaymentReconcilerDeps) {
  /** unreadable charges already reported by this process: logged once, not every round */
  const reported = new Set<string>();

  /**
   * The invoice transactions of the lookback, oldest first. The Bot API says
   * "chronological order" without saying which end comes first, so neither is
   * assumed: each page's dates tell. Newest first, paging stops at the first
   * page reaching past the lookback; oldest first, it goes on to the end.
   */
  async function window(): Promise<InvoiceTransaction[]> {
    const oldest = Math.floor((deps.clock.now() - (deps.lookbackMs ?? defaultLookbackMs)) / 1000);
    const found: InvoiceTransaction[] = [];
    for (let page = 0; ; page++) {
      if (page === maxPages) {
        deps.logger.warn({ pages: maxPages }, "payments reconciler: stopped at its page bound");
        break;
      }
      const answer = pageSchema.parse(
        await deps.api.getStarTransactions({ offset: page * pageSize, limit: pageSize }),
      );
      const dates: number[] = [];
      for (const raw of answer.transactions) {
        const dated = transactionSchema.safeParse(raw);
        if (!dated.success) continue;
        dates.push(dated.data.date);
        if (dated.data.date < oldest) continue;
        const tx = invoiceTransaction(raw);
        if (tx) found.push(tx);
      }
      if (answer.transactions.length < pageSize) break;
      const newestFirst = dates.length > 1 && dates[0]! > dates[dates.length - 1]!;
      if (newestFirst && dates[dates.length - 1]! < oldest) break;
    }
    // a payment is granted before its refund is reversed
    return found.sort((a, b) => a.date - b.date || (a.direction === "paid" ? -1 : 1));
  }

  async function tell(userId: number, key: string, vars: Record<string, string | number>) {
    try {
      if (!(await deps.users.reachablePrivately(userId))) return;
      const user = await deps.users.get(userId);
      await deps.api.sendMessage(userId, deps.t(user?.language ?? "en", key, vars));
    } catch (err) {
      // the credits moved either way: an outage or a blocked bot only loses the note
      deps.logger.info({ err, userId }, "payment note not sent");
    }
  }

  async function grant(tx: InvoiceTransaction, refundedToo: boolean, round: ReconcileRound) {
    if (await deps.payments.byCharge(tx.chargeId)) return;
    const invoice = parsePayload(tx.payload);
    if (!invoice || invoice.userId !== tx.userId || invoice.stars !== tx.stars) {
      round.unreadable.push(tx.chargeId);
      if (reported.has(tx.chargeId)) return;
      reported.add(tx.chargeId);
      deps.logger.warn(
        { chargeId: tx.chargeId, userId: tx.userId, stars: tx.stars, payload: tx.payload },
        "a Stars payment matches no invoice of ours: not granted",
      );
      await deps.alert("payment-unreadable", { charge: tx.chargeId, user: tx.userId, stars: tx.stars });
      return;
    }
    const { applied, payment } = await deps.payments.recordPaid({
      userId: tx.userId,
      telegramChargeId: tx.chargeId,
      currency: "XTR",
      totalAmount: tx.stars,
      credits: invoice.credits,
      payload: tx.payload,
      ...paidProduct(invoice, {
        at: new Date(tx.date * 1000),
        endsAt: tx.subscriptionPeriod ? new Date((tx.date + tx.subscriptionPeriod) * 1000) : undefined,
      }),
      source: "reconciler",
      test: deps.sandbox,
    });
    if (!applied) return;
    round.granted.push(tx.chargeId);
    deps.logger.info(
      { chargeId: tx.chargeId, userId: tx.userId, credits: payment.credits },
      "reconciler: a payment whose update was lost is granted",
    );
    // refunded since: the refund's note says all
    if (!refundedToo) {
      await tell(tx.userId, "reconcile-credited", { stars: tx.stars, credits: payment.credits });
    }
  }

  async function reverse(tx: InvoiceTransaction, round: ReconcileRound) {
    const known = await deps.payments.byCharge(tx.chargeId);
    if (known?.state !== "paid") return;
    const outcome = await deps.payments.refund(tx.chargeId);
    if (outcome.kind !== "reversed") return;
    round.reversed.push(tx.chargeId);
    deps.logger.info(
      {
        chargeId: tx.chargeId,
        userId: known.userId,
        reversed: outcome.reversed,
        notReversed: outcome.notReversed,
      },
      "reconciler: a refund whose update was lost is reversed",
    );
    const notice = refundNotice(outcome.payment, outcome.reversed, outcome.notReversed);
    await tell(known.userId, notice.key, notice.vars);
  }

  /** One round; a failure on one transaction is logged and the others go on. */
  async function reconcile(): Promise<ReconcileRound> {
    const round: ReconcileRound = { granted: [], reversed: [], unreadable: [] };
    const transactions = await window();
    const refunded = new Set(transactions.filter((t) => t.direction === "refunded").map((t) => t.chargeId));
    for (const tx of transactions) {
      try {
        if (tx.direction === "paid") await grant(tx, refunded.has(tx.chargeId), round);
        else await reverse(tx, round);
      } catch (err) {
        deps.logger.warn(
          { err, chargeId: tx.chargeId },
          "reconciler: transaction not settled, next round retries",
        );
      }
    }
    return round;
  }

  return { reconcile };
}
