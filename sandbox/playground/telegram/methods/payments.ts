import { randomBytes } from "node:crypto";
import { badRequest } from "../errors";
import type { Params } from "../params";
import { pricesSchema } from "../schemas";
import type { InvoiceLinkState, MethodHandler, World } from "../world";
import { countFlood, postBotMessage, sendContext } from "./common";

export const paymentMethods: Record<string, MethodHandler> = {
  sendInvoice(w, p) {
    const { chat, extra, markup } = sendContext(w, p);
    const invoice = invoiceOf(w, p);
    countFlood(w, chat);
    const message = postBotMessage(
      w,
      chat,
      {
        invoice: {
          title: invoice.title,
          description: invoice.description,
          start_parameter: p.string("start_parameter") ?? "",
          currency: invoice.currency,
          total_amount: invoice.total,
        },
        ...extra,
      },
      markup,
    );
    w.invoices.set(`${chat.chat.id}:${message.message_id}`, {
      payload: invoice.payload,
      currency: invoice.currency,
      total: invoice.total,
    });
    return message;
  },

  /** A link anyone may pay, any number of times (a Mini App opens it with openInvoice). */
  createInvoiceLink(w, p) {
    const invoice = invoiceOf(w, p);
    const period = p.int("subscription_period");
    if (period !== undefined && (invoice.currency !== "XTR" || period !== 30 * 24 * 3600))
      throw badRequest("SUBSCRIPTION_PERIOD_INVALID");
    const slug = randomBytes(12).toString("base64url");
    w.invoiceLinks.set(slug, period === undefined ? invoice : { ...invoice, subscriptionPeriod: period });
    return `https://t.me/$${slug}`;
  },

  refundStarPayment(w, p) {
    const userId = p.int("user_id");
    const chargeId = p.string("telegram_payment_charge_id") ?? "";
    const payment = w.payments.get(chargeId);
    if (!payment || payment.userId !== userId) throw badRequest("CHARGE_NOT_FOUND");
    if (payment.refunded) throw badRequest("CHARGE_ALREADY_REFUNDED");
    payment.refunded = true;
    payment.refundedDate = Math.floor(w.clock.now() / 1000);
    const chat = w.chats.get(payment.userId);
    if (chat) {
      const user = chat.user!;
      const message = w.chats.add(
        chat,
        {
          refunded_payment: {
            currency: payment.currency,
            total_amount: payment.amount,
            invoice_payload: payment.payload,
            telegram_payment_charge_id: payment.chargeId,
          },
        },
        user,
        false,
      );
      w.chats.log(chat, `payment ${chargeId} refunded (${payment.amount} ${payment.currency})`);
      w.updates.push({ message });
    }
    return true;
  },

  /** Cancels (or re-enables) the extension of a user's subscription, named by a charge id of it. */
  editUserStarSubscription(w, p) {
    const userId = p.int("user_id");
    const chargeId = p.string("telegram_payment_charge_id") ?? "";
    const canceled = p.bool("is_canceled");
    if (canceled === undefined) throw badRequest("is_canceled is required");
    const subscription = [...w.subscriptions.values()].find(
      (s) => s.userId === userId && s.chargeIds.includes(chargeId),
    );
    if (!subscription) throw badRequest("CHARGE_ID_INVALID");
    if (subscription.expires * 1000 <= w.clock.now()) throw badRequest("SUBSCRIPTION_EXPIRED");
    subscription.canceled = canceled;
    const chat = w.chats.get(subscription.userId);
    if (chat)
      w.chats.log(
        chat,
        `subscription ${subscription.id} ${canceled ? "cancelled" : "renews again"} by the bot`,
      );
    return true;
  },

  getStarTransactions(w, p) {
    const offset = p.int("offset") ?? 0;
    const limit = Math.min(100, Math.max(1, p.int("limit") ?? 100));
    if (offset < 0) throw badRequest("offset must be non-negative");
    return { transactions: starTransactions(w).slice(offset, offset + limit) };
  },
};

/** An invoice's fields, checked as sendInvoice and createInvoiceLink both check them. */
function invoiceOf(w: World, p: Params): InvoiceLinkState {
  const title = p.string("title") ?? "";
  const description = p.string("description") ?? "";
  const payload = p.string("payload") ?? "";
  const currency = p.string("currency") ?? "";
  const prices = p.json("prices", pricesSchema, "prices") ?? [];
  if (title.length < 1 || title.length > 32) throw badRequest("INVOICE_TITLE_INVALID");
  if (description.length < 1 || description.length > 255) throw badRequest("INVOICE_DESCRIPTION_INVALID");
  const payloadBytes = Buffer.byteLength(payload, "utf8");
  if (payloadBytes < 1 || payloadBytes > 128) throw badRequest("INVOICE_PAYLOAD_INVALID");
  if (!/^[A-Z]{3}$/.test(currency)) throw badRequest("CURRENCY_INVALID");
  if (prices.length === 0) throw badRequest("prices is empty");
  if (prices.some((price) => price.amount <= 0)) throw badRequest("CURRENCY_TOTAL_AMOUNT_INVALID");
  const total = prices.reduce((sum, price) => sum + price.amount, 0);
  if (currency === "XTR") {
    if (p.string("provider_token")) throw badRequest("PAYMENT_PROVIDER_INVALID");
    if (prices.length !== 1) throw badRequest("STARS_INVOICE_INVALID");
    if (total > w.rules.maxStarsPerInvoice) throw badRequest("CURRENCY_TOTAL_AMOUNT_INVALID");
  } else if (!p.string("provider_token")) {
    throw badRequest("PAYMENT_PROVIDER_INVALID");
  }
  return { title, description, payload, currency, total };
}

/**
 * The bot's Stars account, newest first: each paid invoice is an incoming
 * transaction whose id is its charge id; a refund is an outgoing one with the
 * same id.
 */
function starTransactions(w: World) {
  const out: Array<{ date: number; order: number; transaction: Record<string, unknown> }> = [];
  let order = 0;
  for (const payment of w.payments.values()) {
    const partner = {
      type: "user",
      transaction_type: "invoice_payment",
      user: w.chats.get(payment.userId)?.user ?? { id: payment.userId, is_bot: false, first_name: "User" },
      invoice_payload: payment.payload,
      ...(payment.subscriptionPeriod ? { subscription_period: payment.subscriptionPeriod } : {}),
    };
    const base = { id: payment.chargeId, amount: payment.amount };
    out.push({
      date: payment.date,
      order: order++,
      transaction: { ...base, date: payment.date, source: partner },
    });
    if (payment.refundedDate !== undefined) {
      out.push({
        date: payment.refundedDate,
        order: order++,
        transaction: { ...base, date: payment.refundedDate, receiver: partner },
      });
    }
  }
  return out.sort((a, b) => b.date - a.date || b.order - a.order).map((entry) => entry.transaction);
}
