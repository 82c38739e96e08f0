import type { Message, Update } from "grammy/types";
import type { ChatState } from "./chats";
import { post } from "./user-post";
import { chatOf, type UserState } from "./user-state";
import { invoiceSlug } from "./webapp";
import type { InvoiceLinkState, InvoiceState } from "./world";

export type PaymentOutcome =
  | { ok: true; chargeId: string; message: Message }
  | { ok: false; reason: "declined"; errorMessage: string }
  | { ok: false; reason: "timeout" };

export interface PayOptions {
  deliverTwice?: boolean;
  loseUpdate?: boolean;
}

type Priced = Pick<InvoiceState, "payload" | "currency" | "total"> & { subscriptionPeriod?: number };

export async function pay(
  user: UserState,
  invoice: Message | number | string,
  options: PayOptions,
): Promise<PaymentOutcome> {
  if (typeof invoice === "string") {
    const slug = invoiceSlug(invoice) ?? invoice;
    const details = user.world.invoiceLinks.get(slug);
    if (!details) throw new Error(`${invoice} is not an invoice link from the bot`);
    return payOnce(user, user.chat, `invoice link ${slug}`, details, options);
  }
  const chat = chatOf(user, invoice);
  const messageId = typeof invoice === "number" ? invoice : invoice.message_id;
  const details = user.world.invoices.get(`${chat.chat.id}:${messageId}`);
  if (!details) throw new Error(`message #${messageId} is not an invoice from the bot`);
  // Telegram opens one payment form per invoice, and a paid invoice shows its receipt instead of Pay
  if (details.state === "paid") throw new Error(`invoice #${messageId} is already paid`);
  if (details.state === "paying") throw new Error(`invoice #${messageId} is being paid`);
  if (chat.byId.get(messageId)?.deleted) throw new Error(`invoice #${messageId} was deleted`);
  details.state = "paying";
  try {
    const outcome = await payOnce(user, chat, `invoice #${messageId}`, details, options);
    if (outcome.ok) details.state = "paid";
    return outcome;
  } finally {
    if (details.state === "paying") delete details.state;
  }
}

export function invoiceLink({ world }: UserState, link: string): InvoiceLinkState | undefined {
  return world.invoiceLinks.get(invoiceSlug(link) ?? link);
}

export function deliverLate(user: UserState, message: Message): void {
  user.world.chats.log(chatOf(user, message), `successful_payment #${message.message_id} delivered late`);
  user.world.updates.push({ message: message as Message & Update.NonChannel });
}

async function payOnce(
  user: UserState,
  chat: ChatState,
  what: string,
  details: Priced,
  options: PayOptions,
): Promise<PaymentOutcome> {
  const { world, info } = user;
  const answered = await preCheckout(user, chat, what, details);
  if (!answered) {
    world.chats.log(chat, `payment timed out: no answer to pre_checkout_query`);
    return { ok: false, reason: "timeout" };
  }
  if (!answered.ok) {
    world.chats.log(chat, `payment declined by the bot: ${answered.error_message}`);
    return { ok: false, reason: "declined", errorMessage: answered.error_message ?? "" };
  }
  const chargeId = `stxch${world.newQueryId()}`;
  const now = Math.floor(world.clock.now() / 1000);
  let recurring = {};
  if (details.subscriptionPeriod !== undefined) {
    const expires = now + details.subscriptionPeriod;
    world.subscriptions.set(chargeId, {
      id: chargeId,
      userId: info.id,
      payload: details.payload,
      currency: details.currency,
      amount: details.total,
      period: details.subscriptionPeriod,
      expires,
      canceled: false,
      chargeIds: [chargeId],
    });
    recurring = { subscription_expiration_date: expires, is_recurring: true, is_first_recurring: true };
  }
  return charge(user, chat, { ...details, chargeId, date: now, recurring }, options);
}

/**
 * A period passes for this user's subscriptions: each one still renewing is
 * charged again (a new charge id, its end a period later) and the bot gets a
 * successful_payment with is_recurring, with no pre-checkout query, as
 * Telegram renews; a cancelled one ends instead. `deliverTwice` and
 * `loseUpdate` as for `pay`.
 */
export function renewSubscriptions(user: UserState, options: PayOptions): PaymentOutcome[] {
  const { world, info } = user;
  const outcomes: PaymentOutcome[] = [];
  for (const subscription of world.subscriptions.values()) {
    if (subscription.userId !== info.id) continue;
    const now = Math.floor(world.clock.now() / 1000);
    if (subscription.canceled) {
      if (subscription.expires > now) {
        subscription.expires = now;
        world.chats.log(user.chat, `subscription ${subscription.id} ended: cancelled, not renewed`);
      }
      continue;
    }
    const chargeId = `stxch${world.newQueryId()}`;
    // Telegram charges as the period ends: the renewal is dated then, though the test's clock did not move
    const date = Math.max(subscription.expires, now);
    subscription.expires = date + subscription.period;
    subscription.chargeIds.push(chargeId);
    world.chats.log(
      user.chat,
      `subscription ${subscription.id} renewed: ${subscription.amount} ${subscription.currency}`,
    );
    const recurring = { subscription_expiration_date: subscription.expires, is_recurring: true };
    const details = {
      payload: subscription.payload,
      currency: subscription.currency,
      total: subscription.amount,
      subscriptionPeriod: subscription.period,
    };
    outcomes.push(charge(user, user.chat, { ...details, chargeId, date, recurring }, options));
  }
  return outcomes;
}

/** The Stars taken (a payment Telegram records) and the successful_payment the bot is told of. */
function charge(
  user: UserState,
  chat: ChatState,
  details: Priced & { chargeId: string; date: number; recurring: Record<string, unknown> },
  options: PayOptions,
): PaymentOutcome & { ok: true } {
  const { world, info } = user;
  const { chargeId } = details;
  world.payments.set(chargeId, {
    chargeId,
    userId: info.id,
    amount: details.total,
    currency: details.currency,
    payload: details.payload,
    refunded: false,
    date: details.date,
    ...(details.subscriptionPeriod ? { subscriptionPeriod: details.subscriptionPeriod } : {}),
  });
  const successful_payment = {
    currency: details.currency,
    total_amount: details.total,
    invoice_payload: details.payload,
    telegram_payment_charge_id: chargeId,
    provider_payment_charge_id: "",
    ...details.recurring,
  };
  if (options.loseUpdate) {
    const lost = world.chats.add(chat, { successful_payment }, info, false);
    world.chats.log(chat, `payment ${chargeId}: its update is lost, the bot never hears of it`);
    return { ok: true, chargeId, message: lost };
  }
  const message = post(user, chat, { successful_payment }, {});
  if (options.deliverTwice) {
    world.chats.log(chat, `successful_payment #${message.message_id} delivered again`);
    world.updates.push({ message: message as Message & Update.NonChannel });
  }
  return { ok: true, chargeId, message };
}

/** Sends the pre_checkout_query; the bot's answer, or undefined when it does not answer in time. */
function preCheckout(
  { world, info }: UserState,
  chat: ChatState,
  what: string,
  details: Priced,
): Promise<{ ok: boolean; error_message?: string } | undefined> {
  const id = world.newQueryId();
  const answer = new Promise<{ ok: boolean; error_message?: string } | undefined>((resolve) => {
    const timer = setTimeout(() => {
      world.preCheckouts.delete(id);
      resolve(undefined);
    }, world.rules.preCheckoutTimeoutMs);
    world.preCheckouts.set(id, {
      id,
      userId: info.id,
      at: Date.now(),
      settle: (a) => {
        clearTimeout(timer);
        resolve(a);
      },
    });
  });
  world.chats.log(chat, `${info.first_name} pays ${what}`);
  world.updates.push({
    pre_checkout_query: {
      id,
      from: info,
      currency: details.currency,
      total_amount: details.total,
      invoice_payload: details.payload,
    },
  });
  return answer;
}
