import { sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { creditAccounts, ledgerEntries } from "../db/schema";

const n = (expr: ReturnType<typeof sql>) => sql<number>`coalesce(${expr}, 0)`.mapWith(Number);
const sumOf = (kind: string) =>
  n(sql`sum(${ledgerEntries.deltaAvailable}) filter (where ${ledgerEntries.kind} = ${kind})`);

/** Credits moved, by kind of entry, since the start, and what is held now (an admin's /stats). */
export async function creditTotals(ex: Executor) {
  const [moved] = await ex
    .select({
      granted: sumOf("grant"),
      sold: sumOf("purchase"),
      adjusted: sumOf("adjustment"),
      // a charge entry moves the hold out of `held` and gives back what was not charged
      charged: n(
        sql`-sum(${ledgerEntries.deltaAvailable} + ${ledgerEntries.deltaHeld}) filter (where ${ledgerEntries.kind} = 'charge')`,
      ),
      refunded: sumOf("refund"),
    })
    .from(ledgerEntries);
  return {
    granted: moved?.granted ?? 0,
    sold: moved?.sold ?? 0,
    adjusted: moved?.adjusted ?? 0,
    charged: moved?.charged ?? 0,
    refunded: moved?.refunded ?? 0,
    held: await creditsHeld(ex),
  };
}

/** Credits on hold now, over every account. */
export async function creditsHeld(ex: Executor): Promise<number> {
  const [row] = await ex.select({ held: n(sql`sum(${creditAccounts.held})`) }).from(creditAccounts);
  return row?.held ?? 0;
}
