import { sql } from "drizzle-orm";
import { creditTotalsByDay, sinceUtcDays, utcDayOf } from "../../domain/credits/totals";
import { billedByService } from "../../domain/generations/billed-by-service";
import type { Database } from "../../platform/db/client";
import { rowsOf } from "../../platform/db/raw-rows";
import { generations, orphanTasks } from "../../platform/db/schema";
import { type Operation, operations } from "../../platform/media-service/catalog";
import { collectStats } from "../admin";
import type { DayStats, StatsResponse } from "./contract";

const n = (expr: ReturnType<typeof sql>) => sql<number>`coalesce(${expr}, 0)`.mapWith(Number);

/** The last `days` UTC days, oldest first, as YYYY-MM-DD. */
function dayList(days: number, nowMs: number): string[] {
  const today = Math.floor(nowMs / 86_400_000);
  return Array.from({ length: days }, (_, i) =>
    new Date((today - days + 1 + i) * 86_400_000).toISOString().slice(0, 10),
  );
}

const isOperation = (op: string): op is Operation => (operations as readonly string[]).includes(op);

/**
 * The admins' charts: per UTC day, the generations made by operation and
 * state, and the credits sold, spent (charged less refunded), put on hold, and
 * the margin (spent less the service's credits for that day's results and
 * orphan tasks: /stats' margin, by day). `today` is /stats itself (collectStats).
 */
export async function statsByDay(db: Database, days: number): Promise<StatsResponse> {
  const since = sinceUtcDays(days);
  const genDay = utcDayOf(generations.createdAt);
  const orphanDay = utcDayOf(orphanTasks.createdAt);
  const [today, made, credits, service, orphans, nowRow] = await Promise.all([
    collectStats(db),
    db
      .select({
        day: genDay,
        operation: generations.operation,
        state: generations.state,
        count: n(sql`count(*)`),
      })
      .from(generations)
      .where(sql`${generations.createdAt} >= ${since}`)
      .groupBy(genDay, generations.operation, generations.state),
    creditTotalsByDay(db, days),
    db
      .select({ day: genDay, spent: n(sql`sum(${generations.serviceCredits})`) })
      .from(generations)
      .where(sql`${generations.createdAt} >= ${since} and ${billedByService}`)
      .groupBy(genDay),
    db
      .select({ day: orphanDay, spent: n(sql`sum(${orphanTasks.serviceCredits})`) })
      .from(orphanTasks)
      .where(sql`${orphanTasks.createdAt} >= ${since}`)
      .groupBy(orphanDay),
    // the database's clock decides what "today" is, as in /stats
    db.execute(sql`select (extract(epoch from now()) * 1000)::bigint::text as ms`),
  ]);
  const nowMs = Number(rowsOf<{ ms: string }>(nowRow)[0]?.ms ?? Date.now());
  const serviceOf = (day: string) =>
    (service.find((s) => s.day === day)?.spent ?? 0) + (orphans.find((o) => o.day === day)?.spent ?? 0);
  const series = dayList(days, nowMs).map((day): DayStats => {
    const c = credits.find((r) => r.day === day);
    const spent = (c?.charged ?? 0) - (c?.refunded ?? 0);
    return {
      day,
      generations: made
        .filter((m) => m.day === day && isOperation(m.operation))
        .map((m) => ({ operation: m.operation, state: m.state, count: m.count })),
      sold: c?.sold ?? 0,
      spent,
      held: c?.held ?? 0,
      margin: spent - serviceOf(day),
    };
  });
  return { days: series, today };
}
