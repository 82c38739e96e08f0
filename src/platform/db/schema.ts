import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { Operation } from "../media-service/catalog";

const tgId = (name: string) => bigint(name, { mode: "number" });
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const users = pgTable("users", {
  id: tgId("id").primaryKey(),
  username: text("username"),
  firstName: text("first_name"),
  language: text("language").notNull().default("en"),
  /**
   * set when the user chose their language (/language): their ☰ menu is then one
   * menu in their chat's scope, in that language, re-set after a deploy (bot/commands.ts)
   */
  languageChosenAt: timestamp("language_chosen_at", { withTimezone: true }),
  /** set when Telegram answers 403 (blocked, deactivated); cleared when the user writes again */
  blockedAt: timestamp("blocked_at", { withTimezone: true }),
  /** set by an admin's /ban: the user's updates get one polite answer and spend nothing */
  bannedAt: timestamp("banned_at", { withTimezone: true }),
  /** the code of this user's invite link (t.me/<bot>?start=<code>), made at their first /invite */
  referralCode: text("referral_code").unique(),
  firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
});

export const chats = pgTable("chats", {
  id: tgId("id").primaryKey(),
  type: text("type").notNull(),
  title: text("title"),
  isForum: boolean("is_forum").notNull().default(false),
  firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
});

export const creditAccounts = pgTable(
  "credit_accounts",
  {
    userId: tgId("user_id").primaryKey(),
    available: integer("available").notNull().default(0),
    held: integer("held").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("credit_accounts_available_nonnegative", sql`${t.available} >= 0`),
    check("credit_accounts_held_nonnegative", sql`${t.held} >= 0`),
  ],
);

const holdStates = ["open", "charged", "released"] as const;
export type HoldState = (typeof holdStates)[number];

export const holds = pgTable(
  "credit_holds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    key: text("key").notNull(),
    userId: tgId("user_id")
      .notNull()
      .references(() => creditAccounts.userId),
    amount: integer("amount").notNull(),
    state: text("state").$type<HoldState>().notNull().default("open"),
    chargedAmount: integer("charged_amount"),
    refundedAmount: integer("refunded_amount").notNull().default(0),
    reason: text("reason"),
    createdAt: createdAt(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("credit_holds_key_uq").on(t.key),
    index("credit_holds_user_idx").on(t.userId),
    check("credit_holds_amount_positive", sql`${t.amount} > 0`),
    check("credit_holds_state_valid", sql`${t.state} in ('open','charged','released')`),
    check(
      "credit_holds_charge_consistent",
      sql`(${t.state} = 'charged') = (${t.chargedAmount} is not null) and (${t.chargedAmount} is null or (${t.chargedAmount} >= 0 and ${t.chargedAmount} <= ${t.amount}))`,
    ),
    check(
      "credit_holds_refund_bounded",
      sql`${t.refundedAmount} >= 0 and ${t.refundedAmount} <= coalesce(${t.chargedAmount}, 0)`,
    ),
    check("credit_holds_resolution_time", sql`(${t.state} = 'open') = (${t.resolvedAt} is null)`),
  ],
);

const entryKinds = ["grant", "purchase", "hold", "charge", "release", "refund", "adjustment"] as const;
export type EntryKind = (typeof entryKinds)[number];

/**
 * Append-only. Each entry records its effect on the two balance columns, so the
 * audit can check sum(delta_available) == available and sum(delta_held) == held.
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: tgId("user_id")
      .notNull()
      .references(() => creditAccounts.userId),
    kind: text("kind").$type<EntryKind>().notNull(),
    key: text("key").notNull(),
    deltaAvailable: integer("delta_available").notNull(),
    deltaHeld: integer("delta_held").notNull(),
    holdId: uuid("hold_id").references(() => holds.id),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ledger_entries_kind_key_uq").on(t.kind, t.key),
    index("ledger_entries_user_idx").on(t.userId),
    index("ledger_entries_hold_idx").on(t.holdId),
    check(
      "ledger_entries_kind_valid",
      sql`${t.kind} in ('grant','purchase','hold','charge','release','refund','adjustment')`,
    ),
  ],
);

export const generationStates = [
  "queued",
  "submitting",
  "pending",
  "completed",
  "delivering",
  "delivered",
  "failed",
  "rejected",
  "expired",
  "cancelled",
] as const;
export type GenerationState = (typeof generationStates)[number];

export const generations = pgTable(
  "generations",
  {
    id: uuid("id").primaryKey(),
    /** caller-given key; the same confirmation never creates two generations */
    requestKey: text("request_key").notNull(),
    userId: tgId("user_id").notNull(),
    chatId: tgId("chat_id"),
    threadId: integer("thread_id"),
    replyToMessageId: integer("reply_to_message_id"),
    statusMessageId: integer("status_message_id"),
    inlineMessageId: text("inline_message_id"),
    language: text("language").notNull().default("en"),
    operation: text("operation").$type<Operation>().notNull(),
    params: jsonb("params").$type<Record<string, unknown>>().notNull(),
    price: integer("price").notNull(),
    /** percent off the list price at confirm (the user's plan): the charge settles at the same discount */
    discount: integer("discount").notNull().default(0),
    holdKey: text("hold_key").notNull(),
    state: text("state").$type<GenerationState>().notNull(),
    taskId: text("task_id"),
    serviceCredits: integer("service_credits"),
    outputs: jsonb("outputs").$type<unknown[]>(),
    charged: integer("charged"),
    error: jsonb("error").$type<Record<string, unknown>>(),
    /** submissions to the service (a crash or a retry adds one) */
    attempts: integer("attempts").notNull().default(0),
    deliveryAttempts: integer("delivery_attempts").notNull().default(0),
    /** a result that arrived after we failed/expired it locally: delivered free */
    late: boolean("late").notNull().default(false),
    /** dubbing: input duration measured by the service, for settling the charge */
    measuredSeconds: integer("measured_seconds"),
    /** dubbing in parts (a file over the service's 5 minutes): how many, and how many are dubbed */
    partsTotal: integer("parts_total"),
    partsDone: integer("parts_done"),
    /** last status text shown in the status message, so an edit is never "not modified" */
    statusShown: text("status_shown"),
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
    deliveredMessageIds: jsonb("delivered_message_ids").$type<number[]>(),
    fileIds: jsonb("file_ids").$type<string[]>(),
    /** what Telegram made of each file id (photo, video, audio, document): a cached inline result must name the same type */
    fileKinds: jsonb("file_kinds").$type<string[]>(),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    deadlineAt: timestamp("deadline_at", { withTimezone: true }),
    nextPollAt: timestamp("next_poll_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("generations_request_key_uq").on(t.requestKey),
    uniqueIndex("generations_task_id_uq").on(t.taskId),
    index("generations_state_idx").on(t.state),
    index("generations_user_idx").on(t.userId, t.createdAt),
    // the latest completions of one operation and model, newest first: how long such a request usually takes
    index("generations_usual_duration_idx")
      .on(t.operation, sql`(${t.params}->>'model')`, t.finishedAt)
      .where(sql`${t.charged} IS NOT NULL AND NOT ${t.late}`),
    check("generations_price_nonnegative", sql`${t.price} >= 0`),
  ],
);

export const deliveries = pgTable(
  "deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    generationId: uuid("generation_id")
      .notNull()
      .references(() => generations.id),
    attempt: integer("attempt").notNull(),
    state: text("state").$type<"sending" | "sent" | "failed">().notNull(),
    messageIds: jsonb("message_ids").$type<number[]>(),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("deliveries_generation_attempt_uq").on(t.generationId, t.attempt)],
);

export const partStates = ["queued", "submitting", "pending", "completed", "failed"] as const;
export type PartState = (typeof partStates)[number];

/**
 * One part of a dub in parts: a stretch of the input, cut at a pause and kept in
 * our storage, dubbed as a task of its own. Its attempt is part of the task's
 * Idempotency-Key; a part that failed is tried once more as attempt 2, and
 * `failed` after that (the dub then fails).
 */
export const dubParts = pgTable(
  "dub_parts",
  {
    generationId: uuid("generation_id")
      .notNull()
      .references(() => generations.id),
    index: integer("index").notNull(),
    startMs: integer("start_ms").notNull(),
    endMs: integer("end_ms").notNull(),
    attempt: integer("attempt").notNull().default(1),
    state: text("state").$type<PartState>().notNull().default("queued"),
    taskId: text("task_id"),
    serviceCredits: integer("service_credits"),
    /** the input's length the service measured, for settling the charge */
    measuredSeconds: integer("measured_seconds"),
    outputUrl: text("output_url"),
    /** why the service failed it, last */
    error: text("error"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("dub_parts_generation_index_uq").on(t.generationId, t.index),
    uniqueIndex("dub_parts_task_id_uq").on(t.taskId),
    check(
      "dub_parts_state_known",
      sql`${t.state} in ('queued', 'submitting', 'pending', 'completed', 'failed')`,
    ),
  ],
);

/** Tasks the service ran for a generation that already had another task: their cost is ours. */
export const orphanTasks = pgTable("orphan_tasks", {
  taskId: text("task_id").primaryKey(),
  generationId: uuid("generation_id"),
  serviceCredits: integer("service_credits"),
  reason: text("reason").notNull(),
  createdAt: createdAt(),
});

export const paymentStates = ["paid", "refunded"] as const;
export type PaymentState = (typeof paymentStates)[number];

/**
 * A Telegram Stars payment for a credit pack, one row per
 * telegram_payment_charge_id: the key that makes its grant happen once,
 * whether it came from the successful_payment update or from the reconciler.
 */
export const payments = pgTable(
  "payments",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: tgId("user_id").notNull(),
    telegramChargeId: text("telegram_charge_id").notNull(),
    providerChargeId: text("provider_charge_id"),
    currency: text("currency").notNull(),
    totalAmount: integer("total_amount").notNull(),
    credits: integer("credits").notNull(),
    payload: text("payload").notNull(),
    state: text("state").$type<PaymentState>().notNull().default("paid"),
    /** the pack bought, as configured when the invoice was sent */
    packId: text("pack_id"),
    /** where the bot learnt of it: the update, or the reconciler reading getStarTransactions */
    source: text("source").$type<"update" | "reconciler">().notNull().default("update"),
    /** a test payment (sandbox or playground): no real Stars moved */
    test: boolean("test").notNull().default(false),
    /** on refund: credits taken back, and what could not be (already spent) */
    reversedCredits: integer("reversed_credits").notNull().default(0),
    notReversedCredits: integer("not_reversed_credits").notNull().default(0),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payments_charge_uq").on(t.telegramChargeId),
    index("payments_user_idx").on(t.userId, t.createdAt),
    check("payments_state_valid", sql`${t.state} in ('paid','refunded')`),
  ],
);

/**
 * Who brought whom: written when a new user arrives through someone's invite
 * link; the bonus is paid to both at the referred user's first purchase, once,
 * and taken back if that purchase is refunded.
 */
export const referrals = pgTable(
  "referrals",
  {
    referredId: tgId("referred_id").primaryKey(),
    referrerId: tgId("referrer_id").notNull(),
    createdAt: createdAt(),
    /** the first purchase that paid the bonus */
    rewardChargeId: text("reward_charge_id"),
    rewardedAt: timestamp("rewarded_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    index("referrals_referrer_idx").on(t.referrerId),
    check("referrals_not_self", sql`${t.referredId} <> ${t.referrerId}`),
  ],
);

/**
 * Promo codes an admin made (/promo). Each redemption is the ledger's grant
 * `promo:<code>:<user>` (one per user, by its unique key); `used` counts them,
 * moved in the same transaction with this row locked, so it never passes `max_uses`.
 */
/**
 * A user's monthly plan (a Stars subscription), one row a user: the plan,
 * the charge id Telegram names the subscription by (its first payment, for
 * editUserStarSubscription), the latest period's charge, when the paid
 * periods end, and whether the user cancelled its renewal.
 */
export const planSubscriptions = pgTable("plan_subscriptions", {
  userId: tgId("user_id").primaryKey(),
  planId: text("plan_id").notNull(),
  subscriptionChargeId: text("subscription_charge_id").notNull(),
  lastChargeId: text("last_charge_id").notNull(),
  periodEndsAt: timestamp("period_ends_at", { withTimezone: true }).notNull(),
  canceledAt: timestamp("canceled_at", { withTimezone: true }),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type PlanSubscription = typeof planSubscriptions.$inferSelect;

/** The refused words and patterns admins added with /moderation (REFUSED_PROMPTS has the operator's own). */
export const refusedPromptRules = pgTable("refused_prompt_rules", {
  rule: text("rule").primaryKey(),
  createdBy: tgId("created_by").notNull(),
  createdAt: createdAt(),
});

/** A request refused for its prompt: who, which operation, which rule; never the prompt itself. */
export const promptRefusals = pgTable(
  "prompt_refusals",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: tgId("user_id").notNull(),
    operation: text("operation").notNull(),
    rule: text("rule").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("prompt_refusals_created_idx").on(t.createdAt)],
);

export const reportStates = ["open", "closed"] as const;
export type ReportState = (typeof reportStates)[number];
export const reportActions = ["remove", "refund", "ban", "dismiss"] as const;
export type ReportAction = (typeof reportActions)[number];

/** What an admin did about a report, and what came of it (removed, refunded N, already banned…). */
export interface ReportActionRecord {
  action: ReportAction;
  by: number;
  at: string;
  outcome: string;
}

/**
 * A result reported in a group, one row a result: who made it, who reported
 * it (each member once), and every admin action on it. Open until an admin
 * acts on it; the admins' buttons still work after.
 */
export const resultReports = pgTable(
  "result_reports",
  {
    generationId: uuid("generation_id").primaryKey(),
    chatId: tgId("chat_id").notNull(),
    /** the message the first report was pressed on: an album's actions message is not one of the result's */
    messageId: integer("message_id"),
    makerId: tgId("maker_id").notNull(),
    reporterIds: bigint("reporter_ids", { mode: "number" }).array().notNull(),
    state: text("state").$type<ReportState>().notNull().default("open"),
    actions: jsonb("actions").$type<ReportActionRecord[]>().notNull().default([]),
    createdAt: createdAt(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (t) => [
    index("result_reports_open_idx").on(t.createdAt).where(sql`${t.state} = 'open'`),
    check("result_reports_state_valid", sql`${t.state} in ('open','closed')`),
  ],
);

export const promoCodes = pgTable(
  "promo_codes",
  {
    code: text("code").primaryKey(),
    credits: integer("credits").notNull(),
    maxUses: integer("max_uses").notNull(),
    used: integer("used").notNull().default(0),
    /** only users first seen after the code was made may redeem it */
    newUsersOnly: boolean("new_users_only").notNull().default(false),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    createdBy: tgId("created_by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check("promo_codes_credits_positive", sql`${t.credits} > 0`),
    check("promo_codes_uses_within_max", sql`${t.used} >= 0 and ${t.used} <= ${t.maxUses}`),
  ],
);

export type PromoCode = typeof promoCodes.$inferSelect;

export const broadcastStates = ["sending", "done", "cancelled"] as const;
export type BroadcastState = (typeof broadcastStates)[number];

/** Who a broadcast goes to: everyone reachable, those seen in the last N days, or one language. */
export type BroadcastAudience =
  | { kind: "everyone" }
  | { kind: "active"; days: number }
  | { kind: "language"; language: string };

/**
 * One message (or album) of an admin's, copied to every recipient. The
 * recipient rows are the truth of who got it; Redis only carries the work.
 */
export const broadcasts = pgTable(
  "broadcasts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    adminId: tgId("admin_id").notNull(),
    /** a short description of the content, for the admin's reports */
    text: text("text").notNull(),
    state: text("state").$type<BroadcastState>().notNull().default("sending"),
    /** the chat and message(s) copied: one id, or an album's ids */
    sourceChatId: tgId("source_chat_id").notNull(),
    sourceMessageIds: jsonb("source_message_ids").$type<number[]>().notNull(),
    audience: jsonb("audience").$type<BroadcastAudience>().notNull(),
    total: integer("total").notNull().default(0),
    /** the admin's progress message, edited as the broadcast goes */
    progressChatId: tgId("progress_chat_id"),
    progressMessageId: integer("progress_message_id"),
    language: text("language").notNull().default("en"),
    /** the command message that started it: one broadcast per confirm, however often tapped */
    requestKey: text("request_key").notNull(),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("broadcasts_request_key").on(t.requestKey)],
);

/**
 * `unconfirmed`: nobody knows whether the copy was made (its worker stopped before
 * Telegram's answer was recorded, or the answer was a timeout or a 5xx); never tried again.
 */
export const recipientStates = ["pending", "sending", "sent", "blocked", "failed", "unconfirmed"] as const;
export type RecipientState = (typeof recipientStates)[number];

export const broadcastRecipients = pgTable(
  "broadcast_recipients",
  {
    broadcastId: uuid("broadcast_id")
      .notNull()
      .references(() => broadcasts.id),
    userId: tgId("user_id").notNull(),
    /** `sending` is claimed just before the copy: after a crash it becomes `unconfirmed`, never copied again */
    state: text("state").$type<RecipientState>().notNull().default("pending"),
    messageId: integer("message_id"),
    error: text("error"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("broadcast_recipients_pk").on(t.broadcastId, t.userId),
    index("broadcast_recipients_pending").on(t.broadcastId, t.userId).where(sql`${t.state} = 'pending'`),
    check(
      "broadcast_recipients_state_valid",
      sql`${t.state} in (${sql.raw(recipientStates.map((s) => `'${s}'`).join(","))})`,
    ),
  ],
);

/**
 * A user's last confirmed options per operation (model, ratio, count…), their
 * defaults for the next request. Read through a schema and today's catalog:
 * an option that no longer exists falls back to the default.
 */
export const userPreferences = pgTable(
  "user_preferences",
  {
    userId: tgId("user_id").notNull(),
    operation: text("operation").$type<Operation>().notNull(),
    options: jsonb("options").$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("user_preferences_pk").on(t.userId, t.operation)],
);

export const groupAccessModes = ["everyone", "admins"] as const;
export type GroupAccess = (typeof groupAccessModes)[number];

/** What a group's admins decided: operations switched off, and who may use the bot there. */
export const groupSettings = pgTable(
  "group_settings",
  {
    chatId: tgId("chat_id").primaryKey(),
    disabledOperations: jsonb("disabled_operations").$type<string[]>().notNull().default([]),
    access: text("access").$type<GroupAccess>().notNull().default("everyone"),
    updatedBy: tgId("updated_by"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("group_settings_access_valid", sql`${t.access} in ('everyone','admins')`)],
);

/**
 * An inline result a user placed in some chat (known from chosen_inline_result,
 * or from its Confirm press): what it offers, at what price, and to whom.
 * Nothing is held until Confirm; the generation's key is the inline message id.
 */
export const inlineOffers = pgTable(
  "inline_offers",
  {
    inlineMessageId: text("inline_message_id").primaryKey(),
    /** the offer as answered to the inline query (also in callback data) */
    offerId: text("offer_id").notNull(),
    userId: tgId("user_id").notNull(),
    language: text("language").notNull().default("en"),
    params: jsonb("params").$type<Record<string, unknown>>().notNull(),
    price: integer("price").notNull(),
    generationId: uuid("generation_id"),
    createdAt: createdAt(),
  },
  (t) => [index("inline_offers_user_idx").on(t.userId)],
);

/** Conversation state (grammY StorageAdapter, see bot/storage.ts). */
export const kvStore = pgTable("kv_store", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The update journal: every update acknowledged to Telegram, recorded before
 * the acknowledgement and marked done after handling (see bot/update-journal.ts).
 * Rows from before the journal have no payload and count as done.
 */
export const processedUpdates = pgTable(
  "processed_updates",
  {
    updateId: bigint("update_id", { mode: "number" }).primaryKey(),
    createdAt: createdAt(),
    /** the raw update, kept until it is done */
    payload: jsonb("payload").$type<Record<string, unknown>>(),
    state: text("state").$type<"pending" | "done" | "abandoned">().notNull().default("done"),
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    /** the chat and user the update belongs to: updates sharing a key are handled one at a time, in update_id order */
    sequenceKeys: text("sequence_keys").array(),
    /** the trace: which process handled it, and when (database clock) it was taken and finished */
    handledBy: text("handled_by"),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    // Each index's predicate names something only its own query states, so that no query can
    // scan another's index whole (claim_updates keeps its plans, made once, maybe on an empty
    // table, where such a scan looked as cheap as any): every pending update has a payload.
    // For the recovery's look at unfinished updates:
    index("processed_updates_pending")
      .on(t.state, t.leaseUntil)
      .where(sql`${t.state} = 'pending' AND ${t.payload} IS NOT NULL`),
    // the chat key and the sender key (sequence_keys has at most these two): b-trees, whose
    // scans skip the entries of finished updates once seen, where a GIN index visits them all
    index("processed_updates_pending_first_key")
      .on(sql`(${t.sequenceKeys}[1])`)
      .where(sql`${t.state} = 'pending' AND (${t.sequenceKeys}[1]) IS NOT NULL`),
    index("processed_updates_pending_second_key")
      .on(sql`(${t.sequenceKeys}[2])`)
      .where(sql`${t.state} = 'pending' AND (${t.sequenceKeys}[2]) IS NOT NULL`),
    check("processed_updates_two_keys_at_most", sql`cardinality(${t.sequenceKeys}) <= 2`),
  ],
);
