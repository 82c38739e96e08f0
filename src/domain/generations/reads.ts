import { and, asc, desc, eq, inArray, isNull, lt, notInArray, or, sql } from "drizzle-orm";
import type { Database, Executor } from "../../platform/db/client";
import { preparedQuery } from "../../platform/db/prepared-statements";
import { generations } from "../../platform/db/schema";
import type { GenerationsContext } from "./context";
import { type GenerationParams, generationParams, type Operation } from "./params";
import { endedBadly, notAtRest } from "./states";
import type { Generation } from "./types";

// every step of every request reads its generation, some more than once: built once
const byIdQuery = preparedQuery((db: Database) =>
  db
    .select()
    .from(generations)
    .where(eq(generations.id, sql.placeholder("id")))
    .prepare("generation_by_id"),
);
const byTaskIdQuery = preparedQuery((db: Database) =>
  db
    .select()
    .from(generations)
    .where(eq(generations.taskId, sql.placeholder("taskId")))
    .prepare("generation_by_task_id"),
);

/** Reads of generations, for the steps, the UI and the metrics. */
export function generationReads(ctx: Pick<GenerationsContext, "db" | "deadlines">) {
  const { db } = ctx;

  /** The generation; read in `ex` when it is a transaction (that transaction's view). */
  async function get(id: string, ex: Executor = db): Promise<Generation | null> {
    const [row] =
      ex === db
        ? await byIdQuery(db).execute({ id })
        : await ex.select().from(generations).where(eq(generations.id, id));
    return row ?? null;
  }

  async function byTaskId(taskId: string): Promise<Generation | null> {
    const [row] = await byTaskIdQuery(db).execute({ taskId });
    return row ?? null;
  }

  function paramsOf(g: Generation): GenerationParams {
    return generationParams.parse(g.params);
  }

  /** Every generation not yet at rest, for the reconciler. */
  function unfinished() {
    return db
      .select({ id: generations.id, state: generations.state, notifiedAt: generations.notifiedAt })
      .from(generations)
      .where(
        or(
          inArray(generations.state, notAtRest),
          and(inArray(generations.state, endedBadly), isNull(generations.notifiedAt)),
        ),
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

  /**
   * The user's delivered results whose Telegram file ids are kept, newest
   * first; with `match`, only those whose prompt contains it (any case); with
   * `operation`, only its; with `before` (a generation id), those older than it.
   */
  function deliveredWithFiles(
    userId: number,
    options: { match?: string; limit: number; operation?: Operation; before?: string },
  ) {
    const match = options.match?.trim();
    const pattern = match ? `%${match.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
    const cursor = options.before
      ? db
          .select({ at: generations.createdAt, id: generations.id })
          .from(generations)
          .where(eq(generations.id, options.before))
      : undefined;
    return db
      .select()
      .from(generations)
      .where(
        and(
          eq(generations.userId, userId),
          eq(generations.state, "delivered"),
          sql`jsonb_array_length(coalesce(${generations.fileIds}, '[]'::jsonb)) > 0`,
          pattern ? sql`${generations.params}->>'prompt' ilike ${pattern}` : undefined,
          options.operation ? eq(generations.operation, options.operation) : undefined,
          cursor ? sql`(${generations.createdAt}, ${generations.id}) < (${cursor})` : undefined,
        ),
      )
      .orderBy(desc(generations.createdAt), desc(generations.id))
      .limit(options.limit);
  }

  async function countByState(): Promise<Record<string, number>> {
    const rows = await db
      .select({ state: generations.state, n: sql<number>`count(*)`.mapWith(Number) })
      .from(generations)
      .groupBy(generations.state);
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }

  /** Requests waiting for the service before one created now: the user's place in the queue. */
  async function waitingCount(): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(generations)
      .where(inArray(generations.state, ["queued", "submitting"]));
    return row?.n ?? 0;
  }

  /** Of these ids, the generations at rest since before `cutoff`: their stored results may go. */
  async function restingSince(ids: string[], cutoff: Date): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .select({ id: generations.id })
      .from(generations)
      .where(
        and(
          inArray(generations.id, ids),
          notInArray(generations.state, notAtRest),
          sql`coalesce(${generations.finishedAt}, ${generations.updatedAt}) < ${cutoff.toISOString()}::timestamptz`,
        ),
      );
    return rows.map((r) => r.id);
  }

  /** Generations not at rest whose last move is older than `before`, oldest first (an operator's look at what is stuck). */
  async function stuck(before: Date, limit: number) {
    return db
      .select({
        id: generations.id,
        userId: generations.userId,
        state: generations.state,
        operation: generations.operation,
        taskId: generations.taskId,
        attempts: generations.attempts,
        deliveryAttempts: generations.deliveryAttempts,
        updatedAt: generations.updatedAt,
      })
      .from(generations)
      .where(and(inArray(generations.state, notAtRest), lt(generations.updatedAt, before)))
      .orderBy(asc(generations.updatedAt))
      .limit(limit);
  }

  return {
    get,
    byTaskId,
    paramsOf,
    unfinished,
    recent,
    deliveredWithFiles,
    countByState,
    waitingCount,
    restingSince,
    stuck,
    /** how long a task of `op` may run on the service before it expires (clock ms) */
    deadlineOf: (op: Operation) => ctx.deadlines[op],
  };
}

export type GenerationReads = ReturnType<typeof generationReads>;
