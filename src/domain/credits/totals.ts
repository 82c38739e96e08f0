import { type AnyColumn, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client";
import { creditAccounts, ledgerEntries } from "../../platform/db/schema";

const n = (expr: ReturnType<typeof sql>) => sql<number>`coalesce(${expr}, 0)`.mapWith(Number);
const sumOf = (kind: string) =>
  n(sql`sum(${ledgerEntries.deltaAvailable}) filter (where ${ledgerEntries.kind} = ${kind})`);

const moved = {
  granted: sumOf("grant"),
  sold: sumOf("purchase"),
  adjusted: sumOf("adjustment"),
  // a charge entry moves the hold out of `held` and gives back what was not charged
  charged: n(
    sql`-sum(${ledgerEntries.deltaAvailable} + ${ledgerEntries.deltaHeld}) filter (where ${ledgerEntries.kind} = 'charge')`,
  ),
  refunded: sumOf("refund"),
};

/** A UTC day as YYYY-MM-DD: the same day for every admin, whatever the server's time zone. */
export const utcDayOf = (column: AnyColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** Credits moved, by kind of entry, since the start, and what is held now (an admin's /stats). */
export async function creditTotals(ex: Executor) {
  const [totals] = await ex.select(moved).from(ledgerEntries);
  return {
    granted: totals?.granted ?? 0,
    sold: totals?.sold ?? 0,
    adjusted: totals?.adjusted ?? 0,
    charged: totals?.charged ?? 0,
    refunded: totals?.refunded ?? 0,
    held: await creditsHeld(ex),
  };
}

/** Credits on hold now, over every account. */
export async function creditsHeld(ex: Executor): Promise<number> {
  const [row] = await ex.select({ held: n(sql`sum(${creditAccounts.held})`) }).from(creditAccounts);
  return row?.held ?? 0;
}

/** The same movements per UTC day over the last `days` days (today included), plus the credits put on hold each day. */
export async function creditTotalsByDay(ex: Executor, days: number) {
  const day = utcDayOf(ledgerEntries.createdAt);
  return ex
    .select({
      day,
      ...moved,
      held: n(sql`sum(${ledgerEntries.deltaHeld}) filter (where ${ledgerEntries.kind} = 'hold')`),
    })
    .from(ledgerEntries)
    .where(sql`${ledgerEntries.createdAt} >= ${sinceUtcDays(days)}`)
    .groupBy(day);
}

/** Midnight UTC `days - 1` days ago: the first of the last `days` UTC days. */
export const sinceUtcDays = (days: number) =>
  sql`date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' - make_interval(days => ${days - 1})`;
