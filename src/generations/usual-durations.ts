import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { generations } from "../db/schema";
import { typicalDurations } from "../media/catalog";
import type { GenerationsContext } from "./context";
import type { Operation } from "./params";
import type { Generation } from "./types";

/**
 * How long a request usually takes, from Confirm to its result: the median of
 * the bot's own latest completions of that operation and model, or before
 * there are any, the service document's range ("from … to several minutes").
 */
export type UsualDuration =
  | { source: "history"; seconds: number; samples: number }
  | { source: "document"; fromSeconds: number };

/** What a waiting status says of time: how long such a request usually takes, and how long this one has been. */
export interface Wait {
  usual: UsualDuration | undefined;
  elapsedSeconds: number;
}

/** The operation and model of a request (its params, stored or about to be). */
export interface EstimateSubject {
  operation: Operation;
  model?: unknown;
}

/** How many of the latest completions the median is taken over. */
export const usualDurationSamples = 50;
/** How long an estimate is reused before it is read again (clock ms): completions seen by this process refresh it at once. */
const reuseMs = 30_000;

/** The model a request names; a dub has none (one provider for every language). */
function modelOf(subject: EstimateSubject): string | null {
  return typeof subject.model === "string" ? subject.model : null;
}

/**
 * The seconds from Confirm to the result of the latest completions (charged,
 * not late) of one operation and model, newest first: a walk down
 * generations_usual_duration_idx of at most `usualDurationSamples` entries.
 */
export function latestCompletions(db: Database, subject: EstimateSubject) {
  const model = modelOf(subject);
  const modelColumn = sql`(${generations.params}->>'model')`;
  return db
    .select({
      seconds: sql<number>`extract(epoch from (${generations.finishedAt} - ${generations.createdAt}))`.as(
        "seconds",
      ),
    })
    .from(generations)
    .where(
      and(
        eq(generations.operation, subject.operation),
        model === null ? sql`${modelColumn} IS NULL` : sql`${modelColumn} = ${model}`,
        // the index's predicate, word for word
        sql`${generations.charged} IS NOT NULL AND NOT ${generations.late}`,
        sql`${generations.finishedAt} IS NOT NULL`,
      ),
    )
    .orderBy(desc(generations.finishedAt))
    .limit(usualDurationSamples)
    .as("latest");
}

export function usualDurations(ctx: Pick<GenerationsContext, "db" | "clock">) {
  const { db, clock } = ctx;
  const reused = new Map<string, { until: number; usual: UsualDuration | undefined }>();
  const keyOf = (subject: EstimateSubject) => `${subject.operation} ${modelOf(subject) ?? ""}`;

  async function fromHistory(subject: EstimateSubject): Promise<UsualDuration | undefined> {
    const latest = latestCompletions(db, subject);
    const [row] = await db
      .select({
        median: sql<number | string | null>`percentile_cont(0.5) within group (order by ${latest.seconds})`,
        samples: sql<number>`count(*)`.mapWith(Number),
      })
      .from(latest);
    if (!row || row.samples === 0 || row.median === null) return undefined;
    return { source: "history", seconds: Math.max(0, Number(row.median)), samples: row.samples };
  }

  /** How long a request of this operation and model usually takes; undefined when neither history nor the document says. */
  async function usualDuration(subject: EstimateSubject): Promise<UsualDuration | undefined> {
    const key = keyOf(subject);
    const now = clock.now();
    const kept = reused.get(key);
    if (kept && kept.until > now) return kept.usual;
    const documented = typicalDurations[subject.operation];
    const usual =
      (await fromHistory(subject)) ??
      (documented ? { source: "document" as const, fromSeconds: documented.fromSeconds } : undefined);
    reused.set(key, { until: now + reuseMs, usual });
    return usual;
  }

  /** A completion this process saw: the next estimate of its kind is read again. */
  function forgetUsual(subject: EstimateSubject): void {
    reused.delete(keyOf(subject));
  }

  /** The wait of a generation: its kind's usual duration, and the time since it was confirmed. */
  async function waitOf(g: Pick<Generation, "operation" | "params" | "createdAt">): Promise<Wait> {
    const usual = await usualDuration({ operation: g.operation, model: g.params.model });
    return { usual, elapsedSeconds: Math.max(0, (clock.now() - g.createdAt.getTime()) / 1000) };
  }

  return { usualDuration, forgetUsual, waitOf };
}
