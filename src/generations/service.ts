import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Credits } from "../credits/ledger";
import type { Database, Executor } from "../db/client";
import { deliveries, type GenerationState, generations, orphanTasks } from "../db/schema";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { Prices } from "../pricing/prices";
import {
  type GenerationParams,
  type GenerationParamsInput,
  generationParams,
  type Operation,
} from "./params";
import { type DeliveredOutputs, quote, settle } from "./quote";

export type Generation = typeof generations.$inferSelect;

export interface GenerationQueues {
  submit(id: string, opts?: { delayMs?: number }): Promise<void>;
  /** `now` promotes a sync already waiting (a webhook arrived) */
  sync(id: string, opts?: { delayMs?: number; now?: boolean; adopt?: string }): Promise<void>;
  deliver(id: string): Promise<void>;
}

export interface ChatRef {
  chatId: number | null;
  threadId?: number | null;
  replyToMessageId?: number | null;
  statusMessageId?: number | null;
  inlineMessageId?: string | null;
}

export interface CreateInput {
  /** the same on every replay of the confirming update: a double tap creates one generation */
  key: string;
  userId: number;
  language: string;
  chat: ChatRef;
  params: GenerationParamsInput;
  /** the price the user saw; when the table changed since, nothing is created */
  expectedPrice?: number;
}

export type CreateResult =
  | { ok: true; generation: Generation; created: boolean }
  | { ok: false; reason: "insufficient"; price: number; available: number; missing: number }
  | { ok: false; reason: "invalid"; message: string }
  | { ok: false; reason: "no_price" }
  | { ok: false; reason: "price_changed"; price: number };

export interface OutputSet {
  images: string[];
  videos: string[];
  audios: string[];
}

export const stillRunning: GenerationState[] = ["queued", "submitting", "pending"];
export const toDeliver: GenerationState[] = ["completed", "delivering"];
export const endedBadly: GenerationState[] = ["failed", "rejected", "expired"];

export interface GenerationsOptions {
  db: Database;
  credits: Credits;
  prices: Prices;
  queues: GenerationQueues;
  clock: Clock;
  logger: Logger;
  /** how long after submission a task may run before we expire it, by operation (clock ms) */
  deadlineMs?: Partial<Record<Operation, number>>;
}

const minute = 60_000;
export const defaultDeadlines: Record<Operation, number> = {
  image: 10 * minute,
  edit: 10 * minute,
  // the service gives up on video after about 15 minutes; we add grace
  video: 20 * minute,
  dub: 30 * minute,
};

/**
 * Only a generation we gave up on ourselves can still get a (late, free) result;
 * one the service itself failed cannot complete later.
 */
export function mayStillComplete(g: Generation): boolean {
  if (g.late) return false;
  return g.state === "expired" || (g.state === "failed" && g.error?.reason === "service_unavailable");
}

class Abort<T> extends Error {
  constructor(readonly result: T) {
    super("generations: abort");
  }
}

export function createGenerations(opts: GenerationsOptions) {
  const { db, credits, prices, queues, clock, logger } = opts;
  const deadlines = { ...defaultDeadlines, ...opts.deadlineMs };
  const now = () => new Date(clock.now());

  async function move(
    ex: Executor,
    id: string,
    from: GenerationState[],
    to: GenerationState,
    patch: Partial<typeof generations.$inferInsert> = {},
  ): Promise<Generation | null> {
    const [row] = await ex
      .update(generations)
      .set({ ...patch, state: to, updatedAt: now() })
      .where(and(eq(generations.id, id), inArray(generations.state, from)))
      .returning();
    return row ?? null;
  }

  async function get(id: string, ex: Executor = db): Promise<Generation | null> {
    const [row] = await ex.select().from(generations).where(eq(generations.id, id));
    return row ?? null;
  }

  async function byTaskId(taskId: string): Promise<Generation | null> {
    const [row] = await db.select().from(generations).where(eq(generations.taskId, taskId));
    return row ?? null;
  }

  function paramsOf(g: Generation): GenerationParams {
    return generationParams.parse(g.params);
  }

  async function create(input: CreateInput): Promise<CreateResult> {
    const parsed = generationParams.safeParse(input.params);
    if (!parsed.success)
      return { ok: false, reason: "invalid", message: parsed.error.issues[0]?.message ?? "invalid" };
    const params = parsed.data;
    const q = quote(prices, params);
    if (!q.ok) return { ok: false, reason: "no_price" };
    if (input.expectedPrice !== undefined && input.expectedPrice !== q.credits) {
      return { ok: false, reason: "price_changed", price: q.credits };
    }

    const existing = await db.select().from(generations).where(eq(generations.requestKey, input.key));
    if (existing[0]) return { ok: true, generation: existing[0], created: false };

    const id = randomUUID();
    const holdKey = `gen-${id}`;
    let result: CreateResult;
    try {
      result = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(generations)
          .values({
            id,
            requestKey: input.key,
            userId: input.userId,
            chatId: input.chat.chatId,
            threadId: input.chat.threadId ?? null,
            replyToMessageId: input.chat.replyToMessageId ?? null,
            statusMessageId: input.chat.statusMessageId ?? null,
            inlineMessageId: input.chat.inlineMessageId ?? null,
            language: input.language,
            operation: params.operation,
            params: params as unknown as Record<string, unknown>,
            price: q.credits,
            holdKey,
            state: "queued",
          })
          .onConflictDoNothing({ target: generations.requestKey })
          .returning();
        if (!row) throw new Abort<"raced">("raced");
        const held = await credits.hold({ userId: input.userId, amount: q.credits, key: holdKey }, tx);
        if (!held.ok) {
          throw new Abort<CreateResult>({
            ok: false,
            reason: "insufficient",
            price: q.credits,
            available: held.available,
            missing: held.missing,
          });
        }
        return { ok: true as const, generation: row, created: true };
      });
    } catch (err) {
      if (!(err instanceof Abort)) throw err;
      if (err.result !== "raced") return err.result as CreateResult;
      const [winner] = await db.select().from(generations).where(eq(generations.requestKey, input.key));
      if (!winner) throw new Error(`generations: request ${input.key} vanished after a conflict`);
      return { ok: true, generation: winner, created: false };
    }
    await queues.submit(id).catch((err: unknown) => {
      // the reconciler re-enqueues it; the generation is safe in Postgres
      logger.warn({ err, generationId: id }, "could not enqueue submit");
    });
    return result;
  }

  /** queued → submitting: the caller may now call the service. */
  function startSubmit(id: string): Promise<Generation | null> {
    return db.transaction((tx) =>
      move(tx, id, ["queued"], "submitting", {
        attempts: sql`${generations.attempts} + 1` as unknown as number,
        submittedAt: now(),
      }),
    );
  }

  /** submitting → submitting: the grace period passed with no webhook; sending once more with the same key. */
  function resubmit(id: string): Promise<Generation | null> {
    return move(db, id, ["submitting"], "submitting", {
      attempts: sql`${generations.attempts} + 1` as unknown as number,
      submittedAt: now(),
    });
  }

  /** submitting → queued: the service did not take it (429, 5xx, paused); try again later. */
  function backToQueue(id: string): Promise<Generation | null> {
    return move(db, id, ["submitting"], "queued");
  }

  /** submitting → pending with the service's task id (from our create or adopted from a webhook). */
  async function accepted(
    id: string,
    task: { taskId: string; serviceCredits?: number | null; measuredSeconds?: number | null },
    from: GenerationState[] = ["submitting"],
  ): Promise<Generation | null> {
    const g = await get(id);
    if (!g) return null;
    return move(db, id, from, "pending", {
      taskId: task.taskId,
      serviceCredits: task.serviceCredits ?? null,
      measuredSeconds: task.measuredSeconds == null ? null : Math.ceil(task.measuredSeconds),
      deadlineAt: new Date(clock.now() + deadlines[g.operation]),
    });
  }

  /**
   * A webhook named this generation (by its signed gid) with a task id we never
   * stored: the service took our request before a crash. A generation still
   * submitting takes the task over; one we already gave up on keeps the task id
   * so a late result can be delivered free.
   */
  async function adopt(
    id: string,
    task: { taskId: string; serviceCredits?: number | null; measuredSeconds?: number | null },
  ): Promise<Generation | null> {
    // queued too: a send that failed ambiguously (5xx) may have registered the task after all
    const taken = await accepted(id, task, ["submitting", "queued"]);
    if (taken) return taken;
    const [row] = await db
      .update(generations)
      .set({ taskId: task.taskId, updatedAt: now() })
      .where(
        and(
          eq(generations.id, id),
          isNull(generations.taskId),
          inArray(generations.state, ["failed", "expired"]),
        ),
      )
      .returning();
    return row ?? null;
  }

  async function endWithRelease(
    id: string,
    from: GenerationState[],
    to: "failed" | "rejected" | "expired" | "cancelled",
    error: Record<string, unknown>,
  ): Promise<Generation | null> {
    return db.transaction(async (tx) => {
      const row = await move(tx, id, from, to, { error, finishedAt: now() });
      if (!row) return null;
      const released = await credits.release(
        { key: row.holdKey, reason: `${to}: ${String(error.reason ?? "")}` },
        tx,
      );
      if (!released.ok)
        throw new Error(`generations: hold of ${id} could not be released (${released.reason})`);
      return row;
    });
  }

  const reject = (id: string, error: Record<string, unknown>) =>
    endWithRelease(id, ["submitting"], "rejected", error);
  /** We give up sending: only before the service accepted it (a pending task is the sync's to judge). */
  const failSubmit = (id: string, error: Record<string, unknown>) =>
    endWithRelease(id, ["queued", "submitting"], "failed", error);
  const fail = (id: string, error: Record<string, unknown>) =>
    endWithRelease(id, ["queued", "submitting", "pending"], "failed", error);
  const expire = (id: string) => endWithRelease(id, ["pending"], "expired", { reason: "deadline" });

  async function cancel(id: string, userId: number): Promise<Generation | null> {
    const g = await get(id);
    if (!g || g.userId !== userId) return null;
    return endWithRelease(id, ["queued"], "cancelled", { reason: "cancelled_by_user" });
  }

  /**
   * The service returned outputs: charge for what came (one transaction with the
   * state move), or, if we had already given up locally, deliver it free.
   */
  async function complete(
    id: string,
    outputs: OutputSet,
    extra: { serviceCredits?: number | null } = {},
  ): Promise<{ generation: Generation; late: boolean } | null> {
    return db.transaction(async (tx) => {
      const g = await get(id, tx);
      if (!g) return null;
      const got: DeliveredOutputs = {
        images: outputs.images.length,
        videos: outputs.videos.length,
        audios: outputs.audios.length,
        measuredSeconds: g.measuredSeconds,
      };
      const patch = {
        outputs: [...outputs.images, ...outputs.videos, ...outputs.audios].map((url) => ({ url })),
        serviceCredits: extra.serviceCredits ?? g.serviceCredits,
        finishedAt: now(),
      };
      if (g.state === "pending") {
        const amount = settle(prices, paramsOf(g), g.price, got);
        const row = await move(tx, id, ["pending"], "completed", { ...patch, charged: amount });
        if (!row) return null;
        const charged = await credits.charge({ key: g.holdKey, amount }, tx);
        if (!charged.ok)
          throw new Error(`generations: hold of ${id} could not be charged (${charged.reason})`);
        return { generation: row, late: false };
      }
      if (mayStillComplete(g)) {
        const row = await move(tx, id, ["expired", "failed"], "completed", {
          ...patch,
          charged: 0,
          late: true,
        });
        return row ? { generation: row, late: true } : null;
      }
      return null;
    });
  }

  function startDelivery(id: string): Promise<Generation | null> {
    return move(db, id, toDeliver, "delivering", {
      deliveryAttempts: sql`${generations.deliveryAttempts} + 1` as unknown as number,
    });
  }

  function delivered(id: string, messageIds: number[], fileIds: string[]): Promise<Generation | null> {
    return move(db, id, ["delivering"], "delivered", { deliveredMessageIds: messageIds, fileIds });
  }

  /**
   * A result that can never reach the user (its file is gone, Telegram refuses it
   * for good, or every attempt failed): the generation fails and what was charged
   * is refunded, in one transaction.
   */
  async function undeliverable(id: string, why: string): Promise<Generation | null> {
    return db.transaction(async (tx) => {
      const row = await move(tx, id, toDeliver, "failed", {
        error: { reason: "undeliverable", message: why },
      });
      if (!row) return null;
      if ((row.charged ?? 0) > 0) {
        const refunded = await credits.refund(
          { holdKey: row.holdKey, key: `undeliverable-${id}`, note: why.slice(0, 400) },
          tx,
        );
        if (!refunded.ok) throw new Error(`generations: refund of ${id} failed (${refunded.reason})`);
      }
      return row;
    });
  }

  async function forgetThread(id: string): Promise<void> {
    await db.update(generations).set({ threadId: null }).where(eq(generations.id, id));
  }

  /** One row per attempt to send a result: what was tried, and what came of it. */
  async function recordDelivery(
    generationId: string,
    attempt: number,
    outcome:
      | { state: "sending" }
      | { state: "sent"; messageIds: number[] }
      | { state: "failed"; error: string },
  ): Promise<void> {
    const values = {
      state: outcome.state,
      messageIds: outcome.state === "sent" ? outcome.messageIds : null,
      error: outcome.state === "failed" ? outcome.error.slice(0, 500) : null,
    };
    await db
      .insert(deliveries)
      .values({ generationId, attempt, ...values })
      .onConflictDoUpdate({ target: [deliveries.generationId, deliveries.attempt], set: values });
  }

  function deliveriesOf(generationId: string) {
    return db
      .select()
      .from(deliveries)
      .where(eq(deliveries.generationId, generationId))
      .orderBy(deliveries.attempt);
  }

  async function markNotified(id: string): Promise<boolean> {
    const rows = await db
      .update(generations)
      .set({ notifiedAt: now() })
      .where(and(eq(generations.id, id), isNull(generations.notifiedAt)))
      .returning({ id: generations.id });
    return rows.length === 1;
  }

  async function setStatusShown(id: string, text: string, messageId?: number): Promise<void> {
    await db
      .update(generations)
      .set({ statusShown: text, ...(messageId ? { statusMessageId: messageId } : {}) })
      .where(eq(generations.id, id));
  }

  async function recordOrphan(
    taskId: string,
    generationId: string | null,
    serviceCredits: number | null,
    reason: string,
  ) {
    logger.warn({ taskId, generationId, serviceCredits, reason }, "orphan task on the service");
    await db
      .insert(orphanTasks)
      .values({ taskId, generationId, serviceCredits, reason })
      .onConflictDoNothing();
  }

  /** Every generation not yet at rest, for the reconciler. */
  function unfinished() {
    return db
      .select({ id: generations.id, state: generations.state, notifiedAt: generations.notifiedAt })
      .from(generations)
      .where(
        sql`${generations.state} in ('queued','submitting','pending','completed','delivering') or (${generations.state} in ('failed','rejected','expired') and ${generations.notifiedAt} is null)`,
      );
  }

  function recent(userId: number, limit = 10) {
    return db
      .select()
      .from(generations)
      .where(eq(generations.userId, userId))
      .orderBy(desc(generations.createdAt))
      .limit(limit);
  }

  async function countByState(): Promise<Record<string, number>> {
    const rows = await db
      .select({ state: generations.state, n: sql<number>`count(*)`.mapWith(Number) })
      .from(generations)
      .groupBy(generations.state);
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }

  return {
    create,
    get,
    byTaskId,
    paramsOf,
    startSubmit,
    resubmit,
    backToQueue,
    accepted,
    adopt,
    reject,
    failSubmit,
    fail,
    expire,
    cancel,
    complete,
    startDelivery,
    delivered,
    undeliverable,
    forgetThread,
    recordDelivery,
    deliveriesOf,
    markNotified,
    setStatusShown,
    recordOrphan,
    unfinished,
    recent,
    countByState,
    deadlineOf: (op: Operation) => deadlines[op],
  };
}

export type Generations = ReturnType<typeof createGenerations>;
