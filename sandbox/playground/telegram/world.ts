import type { BotCommand, MenuButton, User } from "grammy/types";
import type { Clock } from "../../../src/platform/lib/clock";
import { ChatStore } from "./chats";
import type { ApiError, Envelope } from "./errors";
import { FileStore } from "./files";
import { FloodControl } from "./flood";
import type { Params } from "./params";
import type { RandomFaults } from "./random-faults";
import type { TelegramRules } from "./rules";
import type { InlineResultsButton } from "./schemas";
import { UpdateQueue } from "./updates";

/** Telegram gone away: every call from `from` (any call when not given) fails until it ends. */
export interface Outage {
  kind: "refused" | "5xx";
  /** lower-cased method name whose next call starts it */
  from: string | undefined;
  started: boolean;
  /** calls turned away */
  refused: number;
}

export interface CallRecord {
  method: string;
  /** parsed JSON or multipart fields; files as { name, size, mime } */
  params: Record<string, unknown>;
  /** the stand-in clock's time of the call */
  at: number;
  response: Envelope;
  /** the call was handled but its connection cut before the answer: Telegram did not confirm it to the bot */
  unconfirmed?: true;
}

export interface CallbackAnswer {
  text?: string;
  show_alert?: boolean;
  url?: string;
  cache_time?: number;
}

export interface CallbackQueryState {
  id: string;
  userId: number;
  chatId?: number;
  messageId?: number;
  /** a press on a button of an inline message (sent via the bot): no chat or message is told */
  inlineMessageId?: string;
  data?: string;
  /** real time (Date.now()) of the press: the bot's latency is real, whatever the clock */
  at: number;
  answer?: CallbackAnswer;
}

export interface InlineQueryState {
  id: string;
  userId: number;
  query: string;
  at: number;
  answer?: {
    results: Array<Record<string, unknown>>;
    cache_time?: number;
    is_personal?: boolean;
    next_offset?: string;
    /** shown above the results: opens the private chat with `/start <start_parameter>` (or a Web App) */
    button?: InlineResultsButton;
  };
}

/** A message a user sent via the bot (inline mode) that carries a keyboard: the bot edits it by this id. */
export interface InlineMessageState {
  inlineMessageId: string;
  chatId: number;
  messageId: number;
  /** the user who chose the result */
  userId: number;
  resultId: string;
}

export interface PreCheckoutState {
  id: string;
  userId: number;
  at: number;
  settle(answer: { ok: boolean; error_message?: string }): void;
}

export interface PaymentState {
  chargeId: string;
  userId: number;
  amount: number;
  currency: string;
  payload: string;
  refunded: boolean;
  /** unix seconds of the payment, and of its refund */
  date: number;
  refundedDate?: number;
  /** a subscription's payment (its first or a renewal): the period, as getStarTransactions reports it */
  subscriptionPeriod?: number;
}

/** A Stars subscription a user paid through a link with subscription_period, known by its first charge id. */
export interface SubscriptionState {
  id: string;
  userId: number;
  payload: string;
  currency: string;
  amount: number;
  period: number;
  /** unix seconds: the end of the period paid */
  expires: number;
  /** the bot (editUserStarSubscription) cancelled its extension */
  canceled: boolean;
  chargeIds: string[];
}

export interface Fault {
  method: string;
  /** answer with this error; without one the call is served normally (after any delay) */
  error?: ApiError;
  /** hold the call this long (real ms) first: a slow upload, or a bot killed mid-call */
  delayMs?: number;
  /** hold the call until the test opens this gate (Telegram slow for as long as a test needs) */
  gate?: Gate;
  /** answer with this HTTP status and exactly this body, unhandled: a Bot API server that is not Telegram's */
  raw?: { status: number; body: unknown };
  times: number;
}

interface Gate {
  opened: Promise<void>;
  /** calls held at it now */
  waiting: number;
}

export type MethodHandler = (world: World, params: Params, request: { signal?: AbortSignal }) => unknown;

export interface InvoiceState {
  payload: string;
  currency: string;
  total: number;
  /** a payment form is open (a pre-checkout query waits), or the invoice was paid: it shows its receipt */
  state?: "paying" | "paid";
}

/** What createInvoiceLink made: paid from a Mini App (openInvoice), by anyone, any number of times. */
export interface InvoiceLinkState {
  title: string;
  description: string;
  payload: string;
  currency: string;
  total: number;
  /** a subscription's link: paying it subscribes, charged again each period */
  subscriptionPeriod?: number;
}

/** Everything the stand-in knows, shared by the HTTP methods and the test-side users. */
export class World {
  readonly files: FileStore;
  readonly flood: FloodControl;
  readonly updates: UpdateQueue;
  readonly chats: ChatStore;
  readonly calls: CallRecord[] = [];
  readonly callbackQueries = new Map<string, CallbackQueryState>();
  readonly inlineQueries = new Map<string, InlineQueryState>();
  /** inline messages by inline_message_id */
  readonly inlineMessages = new Map<string, InlineMessageState>();
  /** @BotFather's inline feedback: chosen_inline_result updates are sent only when on */
  inlineFeedback = true;
  readonly preCheckouts = new Map<string, PreCheckoutState>();
  readonly payments = new Map<string, PaymentState>();
  readonly commands = new Map<string, BotCommand[]>();
  readonly menuButtons = new Map<number | "default", MenuButton>();
  /** name, description and short description, by `${field}|${language}` */
  readonly profile = new Map<string, string>();
  readonly faults: Fault[] = [];
  /** seeded random faults on every method call (a cut connection, a 502); none unless a test starts them */
  randomFaults: RandomFaults | undefined;
  /** Telegram away (an outage a test started), until the test ends it */
  outage: Outage | undefined;
  /** invoices the bot sent, by `${chatId}:${messageId}` */
  readonly invoices = new Map<string, InvoiceState>();
  /** invoice links by slug (`https://t.me/$<slug>`) */
  readonly invoiceLinks = new Map<string, InvoiceLinkState>();
  /** Stars subscriptions by their first charge id */
  readonly subscriptions = new Map<string, SubscriptionState>();
  readonly botUser: User;
  private readonly listeners = new Set<() => void>();
  private idCounter = 0;
  private nextUserId = 5_000_000_001;
  private nextGroupId = 1;

  constructor(
    public rules: TelegramRules,
    readonly clock: Clock,
    readonly token: string,
    botNames: { firstName: string; username: string },
    webhookReply: (method: string, params: Record<string, unknown>) => Promise<void>,
    firstUpdateId?: number,
    /** local-server mode: the bot's folder where files are kept (see FileStore) */
    localDir?: string,
  ) {
    this.files = new FileStore(localDir);
    this.flood = new FloodControl(() => this.rules, clock);
    this.updates = new UpdateQueue(() => this.rules, clock, webhookReply, firstUpdateId);
    this.chats = new ChatStore(clock);
    this.botUser = {
      id: Number(token.split(":")[0]),
      is_bot: true,
      first_name: botNames.firstName,
      username: botNames.username,
    };
  }

  newUserId(): number {
    return this.nextUserId++;
  }

  newGroupId(supergroup: boolean): number {
    const n = this.nextGroupId++;
    return supergroup ? -(1_000_000_000_000 + 2_000_000_000 + n) : -(4_000_000_000 + n);
  }

  /** ids of callback, inline and pre-checkout queries: long digit strings like Telegram's */
  newQueryId(): string {
    this.idCounter += 1;
    return `${Date.now() % 1_000_000_000}${String(this.idCounter).padStart(9, "0")}`;
  }

  /** Called when something a test may wait for changed (a bot message, an answer). */
  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
