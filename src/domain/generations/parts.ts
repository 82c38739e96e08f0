import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { dubParts, generations, type PartState } from "../../platform/db/schema";
import type { GenerationsContext } from "./context";
import { stateMover } from "./context";
import type { PartPlanned } from "./dub-parts";
import type { Generation } from "./types";

export type DubPart = typeof dubParts.$inferSelect;

/**
 * The parts of a dub in parts, and their arrows: queued → submitting → pending
 * → completed, or back to queued as the next attempt when the service failed
 * one. Each is a conditional UPDATE on (generation, index, attempt), so two
 * workers on one generation never send a part twice under one key.
 */
export function dubPartRecords(ctx: Pick<GenerationsContext, "db" | "now" | "clock" | "deadlines">) {
  const { db, now } = ctx;
  const move = stateMover(ctx);

  /**
   * queued → pending with its parts, in one transaction: the file is cut and
   * kept; the parts are sent by the sync step. The deadline gives every part
   * the dubbing deadline, `atOnce` of them at a time.
   */
  async function startParts(
    id: string,
    plan: readonly PartPlanned[],
    atOnce: number,
  ): Promise<Generation | null> {
    return db.transaction(async (tx) => {
      const waves = Math.ceil(plan.length / Math.max(1, atOnce));
      const row = await move(tx, id, ["queued"], "pending", {
        attempts: sql`${generations.attempts} + 1` as unknown as number,
        submittedAt: now(),
        partsTotal: plan.length,
        partsDone: 0,
        deadlineAt: new Date(ctx.clock.now() + ctx.deadlines.dub * waves),
      });
      if (!row) return null;
      await tx
        .insert(dubParts)
        .values(plan.map((p) => ({ generationId: id, ...p })))
        .onConflictDoNothing();
      return row;
    });
  }

  function partsOf(id: string): Promise<DubPart[]> {
    return db.select().from(dubParts).where(eq(dubParts.generationId, id)).orderBy(asc(dubParts.index));
  }

  async function movePart(
    part: Pick<DubPart, "generationId" | "index" | "attempt">,
    from: PartState[],
    to: PartState,
    patch: Partial<typeof dubParts.$inferInsert> = {},
  ): Promise<DubPart | null> {
    const [row] = await db
      .update(dubParts)
      .set({ ...patch, state: to, updatedAt: now() })
      .where(
        and(
          eq(dubParts.generationId, part.generationId),
          eq(dubParts.index, part.index),
          eq(dubParts.attempt, part.attempt),
          inArray(dubParts.state, from),
        ),
      )
      .returning();
    return row ?? null;
  }

  return {
    startParts,
    partsOf,
    /** queued → submitting: this worker sends the part now */
    claimPart: (p: DubPart) => movePart(p, ["queued"], "submitting", { submittedAt: now() }),
    /** submitting → submitting: no answer in the grace period; sent again with the same key */
    resendPart: (p: DubPart) => movePart(p, ["submitting"], "submitting", { submittedAt: now() }),
    /** submitting → queued: the service surely did not take it (429, 5xx, a network failure) */
    requeuePart: (p: DubPart) => movePart(p, ["submitting"], "queued"),
    /** submitting → pending with its task (our create's answer, or a task a webhook named) */
    acceptPart: (
      p: DubPart,
      task: { taskId: string; serviceCredits: number | null; measuredSeconds: number | null },
    ) =>
      movePart(p, ["submitting"], "pending", {
        taskId: task.taskId,
        serviceCredits: task.serviceCredits,
        measuredSeconds: task.measuredSeconds === null ? null : Math.ceil(task.measuredSeconds),
        submittedAt: now(),
      }),
    /** pending → queued as the next attempt: the service failed it (a new task, a new key) */
    retryPart: (p: DubPart) =>
      movePart(p, ["pending"], "queued", {
        attempt: p.attempt + 1,
        taskId: null,
        serviceCredits: null,
        measuredSeconds: null,
      }),
    /** pending → failed: the service failed it on its last attempt, or a create was refused */
    failPart: (p: DubPart, error: string) =>
      movePart(p, ["pending", "submitting"], "failed", { outputUrl: null, error }),
    /** pending → completed with its output; the parent counts it */
    async completePart(
      p: DubPart,
      done: { outputUrl: string; serviceCredits: number | null; measuredSeconds: number | null },
    ): Promise<DubPart | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(dubParts)
          .set({
            state: "completed",
            outputUrl: done.outputUrl,
            serviceCredits: done.serviceCredits ?? p.serviceCredits,
            measuredSeconds:
              done.measuredSeconds === null ? p.measuredSeconds : Math.ceil(done.measuredSeconds),
            updatedAt: now(),
          })
          .where(
            and(
              eq(dubParts.generationId, p.generationId),
              eq(dubParts.index, p.index),
              eq(dubParts.attempt, p.attempt),
              eq(dubParts.state, "pending"),
            ),
          )
          .returning();
        if (!row) return null;
        const [completed] = await tx
          .select({ n: count() })
          .from(dubParts)
          .where(and(eq(dubParts.generationId, p.generationId), eq(dubParts.state, "completed")));
        await tx
          .update(generations)
          .set({ partsDone: completed?.n ?? 0, updatedAt: now() })
          .where(eq(generations.id, p.generationId));
        return row;
      });
    },
  };
}

export type DubPartRecords = ReturnType<typeof dubPartRecords>;
