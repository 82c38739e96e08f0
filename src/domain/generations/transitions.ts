import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { type GenerationState, generations } from "../../platform/db/schema";
import { type GenerationsContext, stateMover } from "./context";
import type { SentFileKind } from "./deliver/sent-file";
import { type DeliveredOutputs, settle } from "./quote";
import type { GenerationReads } from "./reads";
import { mayStillComplete, stillRunning, toDeliver } from "./states";
import type { Generation, OutputSet } from "./types";

/**
 * The arrows of the state machine (docs/architecture.md, "The modules"), one function each, named for what
 * it does. Each is a conditional UPDATE; where money moves, it moves in the same
 * transaction. `create` (→ queued) is in create.ts.
 */
export function generationTransitions(ctx: GenerationsContext, reads: GenerationReads) {
  const { db, credits, prices, clock, deadlines, now } = ctx;
  const { get, paramsOf } = reads;
  const move = stateMover(ctx);
  const observe = ctx.observe ?? (() => undefined);
  /** `fn`, whose result (the transaction committed) is also told to `tell`: the lifecycle observer */
  const observed =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R | null>, tell: (result: R) => void) =>
    async (...args: A): Promise<R | null> => {
      const result = await fn(...args);
      if (result) tell(result);
      return result;
    };

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
  function requeue(id: string): Promise<Generation | null> {
    return move(db, id, ["submitting"], "queued");
  }

  /** submitting → pending with the service's task id (from our create or adopted from a webhook). */
  async function accept(
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
    const taken = await accept(id, task, ["submitting", "queued"]);
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

  async function releaseAndEnd(
    id: string,
    from: GenerationState[],
    to: "failed" | "rejected" | "expired" | "cancelled",
    error: Record<string, unknown>,
    extra: { serviceCredits?: number } = {},
  ): Promise<Generation | null> {
    return db.transaction(async (tx) => {
      const row = await move(tx, id, from, to, { error, finishedAt: now(), ...extra });
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

  const endWithRelease = observed(releaseAndEnd, (g) => observe({ step: "ended", g, released: g.price }));
  const reject = (id: string, error: Record<string, unknown>) =>
    endWithRelease(id, ["submitting"], "rejected", error);
  /** We give up sending: only before the service accepted it (a pending task is the sync's to judge). */
  const failSubmit = (id: string, error: Record<string, unknown>) =>
    endWithRelease(id, ["queued", "submitting"], "failed", error);
  /** `serviceCredits`: what the service billed all the same (the parts of a dub it did dub) */
  const fail = (id: string, error: Record<string, unknown>, extra?: { serviceCredits?: number }) =>
    endWithRelease(id, ["queued", "submitting", "pending"], "failed", error, extra);
  const expire = (id: string, extra?: { serviceCredits?: number }) =>
    endWithRelease(id, ["pending"], "expired", { reason: "deadline" }, extra);

  async function cancel(id: string, userId: number): Promise<Generation | null> {
    const g = await get(id);
    if (!g || g.userId !== userId) return null;
    return endWithRelease(id, ["queued"], "cancelled", { reason: "cancelled_by_user" });
  }

  /**
   * An admin's cancellation of every request of this user still queued (on a
   * ban), each with its release; what the service already has runs on.
   */
  async function cancelQueuedOf(userId: number): Promise<Generation[]> {
    const queued = await db
      .select({ id: generations.id })
      .from(generations)
      .where(and(eq(generations.userId, userId), eq(generations.state, "queued")));
    const cancelled: Generation[] = [];
    for (const { id } of queued) {
      const row = await endWithRelease(id, ["queued"], "cancelled", { reason: "cancelled_by_admin" });
      if (row) cancelled.push(row);
    }
    return cancelled;
  }

  /**
   * The service returned outputs: charge for what came (one transaction with the
   * state move), or, if we had already given up locally, deliver it free.
   */
  async function complete(
    id: string,
    outputs: OutputSet,
    extra: {
      serviceCredits?: number | null;
      measuredParts?: readonly number[];
      /** a dub from "auto": the language the service said it heard */
      detectedLanguage?: string;
    } = {},
  ): Promise<{ generation: Generation; late: boolean } | null> {
    return db.transaction(async (tx) => {
      const g = await get(id, tx);
      if (!g) return null;
      const got: DeliveredOutputs = {
        images: outputs.images.length,
        videos: outputs.videos.length,
        audios: outputs.audios.length,
        measuredSeconds: extra.measuredParts ?? g.measuredSeconds,
      };
      const patch = {
        outputs: [...outputs.images, ...outputs.videos, ...outputs.audios].map((url) => ({ url })),
        serviceCredits: extra.serviceCredits ?? g.serviceCredits,
        finishedAt: now(),
        ...(extra.detectedLanguage
          ? { params: { ...g.params, detectedLanguage: extra.detectedLanguage } }
          : {}),
      };
      if (g.state === "pending") {
        const amount = settle(prices.withDiscount(g.discount), paramsOf(g), g.price, got);
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

  /** delivering → delivered, with what Telegram gave back (and what it made of each file, when known). */
  function finishDelivery(
    id: string,
    messageIds: number[],
    fileIds: string[],
    fileKinds?: SentFileKind[],
  ): Promise<Generation | null> {
    return move(db, id, ["delivering"], "delivered", {
      deliveredMessageIds: messageIds,
      fileIds,
      ...(fileKinds ? { fileKinds } : {}),
    });
  }

  /**
   * A result that can never reach the user (its file is gone, Telegram refuses it
   * for good, or every attempt failed): the generation fails and what was charged
   * is refunded, in one transaction.
   */
  async function refundUndeliverable(
    id: string,
    why: string,
    from: GenerationState[] = toDeliver,
  ): Promise<Generation | null> {
    return db.transaction(async (tx) => {
      const row = await move(tx, id, from, "failed", {
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

  const refundObserved = observed(refundUndeliverable, (g) =>
    observe({ step: "refunded", g, refunded: g.charged ?? 0 }),
  );

  /**
   * Before a user's data is erased: each request still running ends as
   * cancelled with its hold released, and each result not yet being sent
   * fails with its charge refunded (one being sent is left to arrive: the
   * erasure waits for it). The service has no cancel: what it still makes
   * for them is paid by us, and its late webhook finds no request (ignored).
   * How many were stopped.
   */
  async function stopAllOf(userId: number): Promise<number> {
    const open = await db
      .select({ id: generations.id, state: generations.state })
      .from(generations)
      .where(and(eq(generations.userId, userId), inArray(generations.state, [...stillRunning, "completed"])));
    let stopped = 0;
    for (const g of open) {
      const row = stillRunning.includes(g.state)
        ? await endWithRelease(g.id, stillRunning, "cancelled", { reason: "erased_at_user_request" })
        : await refundObserved(g.id, "erased at the user's request", ["completed"]);
      if (row) stopped++;
    }
    return stopped;
  }

  return {
    stopAllOf,
    startSubmit,
    resubmit,
    requeue,
    accept: observed(accept, (g) => observe({ step: "submitted", g })),
    adopt: observed(adopt, (g) => {
      if (g.state === "pending") observe({ step: "submitted", g });
    }),
    reject,
    failSubmit,
    fail,
    expire,
    cancel,
    cancelQueuedOf,
    complete: observed(complete, (r) =>
      observe({ step: "completed", g: r.generation, charged: r.generation.charged ?? 0, late: r.late }),
    ),
    startDelivery,
    finishDelivery: observed(finishDelivery, (g) => observe({ step: "delivered", g })),
    refundUndeliverable: refundObserved,
  };
}

export type GenerationTransitions = ReturnType<typeof generationTransitions>;
