import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client";
import { dubParts, generations } from "../../platform/db/schema";
import { typicalDurations } from "../../platform/media-service/catalog";
import type { GenerationsContext } from "./context";
import type { Operation } from "./params";
import type { Generation } from "./types";

/**
 * How long a request usually takes, from Confirm to its result: from the bot's
 * own latest completions of that operation and model (the median time per unit
 * of work, times this request's units: a dub's minutes of input, a video's
 * seconds ordered), or before there are any, the service document's range
 * ("from … to several minutes").
 */
export type UsualDuration =
  | { source: "history"; seconds: number; samples: number }
  | { source: "document"; fromSeconds: number };

/**
 * What a waiting status says of time: how long such a request usually takes,
 * how long this one has been, and, when its length makes the history's estimate
 * its own, about how long is left (below zero: later than estimated).
 */
export interface Wait {
  usual: UsualDuration | undefined;
  elapsedSeconds: number;
  leftSeconds?: number;
}

/** The operation and model of a request, and its length (its params, stored or about to be). */
export interface EstimateSubject {
  operation: Operation;
  model?: unknown;
  /** a dub's input, in seconds */
  durationSeconds?: unknown;
  /** a video's length ordered, in seconds */
  duration?: unknown;
}

/** How many of the latest completions the median is taken over. */
export const usualDurationSamples = 50;
/** How long an estimate is reused before it is read again (clock ms): completions seen by this process refresh it at once. */
const reuseMs = 30_000;

/** The model a request names; a dub has none (one provider for every language). */
function modelOf(subject: EstimateSubject): string | null {
  return typeof subject.model === "string" ? subject.model : null;
}

const positive = (n: unknown): number | undefined =>
  typeof n === "number" && Number.isFinite(n) && n > 0 ? n : undefined;

/**
 * How many units of work a request is, the measure its time scales with: a
 * dub's minutes of input (at least one: below that the fixed costs rule), a
 * video's seconds; one for the rest, and for a request whose length is unknown.
 */
export function unitsOf(subject: EstimateSubject): number {
  if (subject.operation === "dub") return Math.max(1, (positive(subject.durationSeconds) ?? 60) / 60);
  if (subject.operation === "video") return positive(subject.duration) ?? 1;
  return 1;
}

/** Whether a request says its length (a dub's input, a video's seconds): then the history can say how much of it is left. */
const hasLength = (subject: EstimateSubject): boolean =>
  (subject.operation === "dub" && positive(subject.durationSeconds) !== undefined) ||
  (subject.operation === "video" && positive(subject.duration) !== undefined);

/**
 * `unitsOf` of a stored row, in SQL (a dub's length the service measured, else
 * the one we read); null for a row that does not say its length, which then
 * says nothing of the pace.
 */
function unitsColumn(operation: Operation) {
  const param = (name: string) => sql`nullif(${generations.params}->>${name}, '')::float8`;
  if (operation === "dub") {
    const seconds = sql`coalesce(${generations.measuredSeconds}::float8, ${param("durationSeconds")})`;
    return sql`case when ${seconds} > 0 then greatest(1, ${seconds} / 60) end`;
  }
  if (operation === "video") return sql`case when ${param("duration")} > 0 then ${param("duration")} end`;
  return sql`1::float8`;
}

/**
 * The seconds per unit of work (`unitsColumn`) from Confirm to the result of
 * the latest completions (charged, not late) of one operation and model, newest
 * first: a walk down generations_usual_duration_idx of at most
 * `usualDurationSamples` entries.
 */
export function latestCompletions(db: Database, subject: EstimateSubject) {
  const model = modelOf(subject);
  const modelColumn = sql`(${generations.params}->>'model')`;
  return db
    .select({
      perUnit:
        sql<number>`extract(epoch from (${generations.finishedAt} - ${generations.createdAt})) / ${unitsColumn(subject.operation)}`.as(
          "per_unit",
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

/** The history's pace of one operation and model: the median seconds per unit of work (`unitsOf`). */
type Pace =
  | { source: "history"; perUnit: number; samples: number }
  | { source: "document"; fromSeconds: number };

/** A dub part's share of the work, for how much of a dub in parts is left. */
type PartProgress = Pick<
  typeof dubParts.$inferSelect,
  "startMs" | "endMs" | "state" | "submittedAt" | "updatedAt"
>;

export function usualDurations(ctx: Pick<GenerationsContext, "db" | "clock">) {
  const { db, clock } = ctx;
  const reused = new Map<string, { until: number; pace: Pace | undefined }>();
  const keyOf = (subject: EstimateSubject) => `${subject.operation} ${modelOf(subject) ?? ""}`;

  async function fromHistory(subject: EstimateSubject): Promise<Pace | undefined> {
    const latest = latestCompletions(db, subject);
    const [row] = await db
      .select({
        median: sql<number | string | null>`percentile_cont(0.5) within group (order by ${latest.perUnit})`,
        samples: sql<number>`count(${latest.perUnit})`.mapWith(Number),
      })
      .from(latest);
    if (!row || row.samples === 0 || row.median === null) return undefined;
    return { source: "history", perUnit: Math.max(0, Number(row.median)), samples: row.samples };
  }

  async function paceOf(subject: EstimateSubject): Promise<Pace | undefined> {
    const key = keyOf(subject);
    const now = clock.now();
    const kept = reused.get(key);
    if (kept && kept.until > now) return kept.pace;
    const documented = typicalDurations[subject.operation];
    const pace =
      (await fromHistory(subject)) ??
      (documented ? { source: "document" as const, fromSeconds: documented.fromSeconds } : undefined);
    reused.set(key, { until: now + reuseMs, pace });
    return pace;
  }

  /** How long a request of this operation, model and length usually takes; undefined when neither history nor the document says. */
  async function usualDuration(subject: EstimateSubject): Promise<UsualDuration | undefined> {
    const pace = await paceOf(subject);
    if (pace?.source !== "history") return pace;
    return { source: "history", seconds: pace.perUnit * unitsOf(subject), samples: pace.samples };
  }

  /** A completion this process saw: the next estimate of its kind is read again. */
  function forgetUsual(subject: EstimateSubject): void {
    reused.delete(keyOf(subject));
  }

  /**
   * The wait of a generation: its kind's usual duration for its length, the
   * time since it was confirmed, and, when the history knows the pace of a
   * request of a length (a dub, a video), how long is left: the history's
   * estimate less the time it has been. A dub in parts past that estimate is
   * told by its own parts instead: the minutes not yet dubbed at the pace of
   * those dubbed so far, from the last one back.
   */
  async function waitOf(
    g: Pick<Generation, "operation" | "params" | "createdAt"> &
      Partial<Pick<Generation, "id" | "partsTotal">>,
  ): Promise<Wait> {
    const subject = { ...g.params, operation: g.operation };
    const usual = await usualDuration(subject);
    const now = clock.now();
    const elapsedSeconds = Math.max(0, (now - g.createdAt.getTime()) / 1000);
    if (usual?.source !== "history" || !hasLength(subject)) return { usual, elapsedSeconds };
    const byHistory = usual.seconds - elapsedSeconds;
    const parts = g.id && g.partsTotal && g.partsTotal > 1 ? await partsProgress(g.id) : [];
    const byParts = partsPace(parts, now);
    // on the history's time, its estimate (parts dubbed side by side would make the pace of the first ones misleading)
    const leftSeconds = byHistory > 0 || byParts === undefined ? byHistory : byParts;
    return { usual, elapsedSeconds, leftSeconds };
  }

  /** What the parts dubbed so far say is left of the others, in seconds; undefined before one is dubbed. */
  function partsPace(parts: readonly PartProgress[], now: number): number | undefined {
    const minutes = (p: PartProgress) => (p.endMs - p.startMs) / 60_000;
    const done = parts.filter((p) => p.state === "completed");
    const started = parts.flatMap((p) => (p.submittedAt ? [p.submittedAt.getTime()] : []));
    if (done.length === 0 || started.length === 0) return undefined;
    const firstSent = Math.min(...started);
    const lastDone = Math.max(...done.map((p) => p.updatedAt.getTime()));
    const perMinute = (lastDone - firstSent) / 1000 / done.reduce((sum, p) => sum + minutes(p), 0);
    const minutesLeft = parts.filter((p) => p.state !== "completed").reduce((sum, p) => sum + minutes(p), 0);
    return perMinute * minutesLeft - (now - lastDone) / 1000;
  }

  function partsProgress(id: string): Promise<PartProgress[]> {
    return db
      .select({
        startMs: dubParts.startMs,
        endMs: dubParts.endMs,
        state: dubParts.state,
        submittedAt: dubParts.submittedAt,
        updatedAt: dubParts.updatedAt,
      })
      .from(dubParts)
      .where(eq(dubParts.generationId, id));
  }

  return { usualDuration, forgetUsual, waitOf };
}

export type UsualDurations = ReturnType<typeof usualDurations>;
