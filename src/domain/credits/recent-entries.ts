import { and, desc, eq, not, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client";
import { preparedQuery } from "../../platform/db/prepared-statements";
import { type EntryKind, generations, holds, ledgerEntries } from "../../platform/db/schema";
import { planPeriodKey, promoKeyPrefix, purchaseRefundKey } from "./entry-keys";
import type { EntryLabel } from "./entry-labels";

export interface EntryView {
  label: EntryLabel;
  /** credits the entry moved, always positive: the text carries the sign */
  amount: number;
  /** a charge that returned part of its hold: what came back */
  back: number;
  at: Date;
  /** the request a hold, charge, release or refund was for, when it is known */
  request?: EntryRequest;
}

/** The request behind an entry: which generation, of what kind, asking for what (its stored params). */
export interface EntryRequest {
  id: string;
  operation: string;
  params: Record<string, unknown>;
}

interface EntryRow {
  kind: EntryKind;
  key: string;
  deltaAvailable: number;
  deltaHeld: number;
  createdAt: Date;
  request?: EntryRequest | null;
}

const purchaseRefundPrefix = purchaseRefundKey("");
const planPeriodPrefix = planPeriodKey("");

/**
 * The entry as the user reads it. Holds and releases move credits between
 * available and reserved; a charge spends what was reserved (part of it may
 * come back); the rest change the available credits. Bonuses and purchase
 * refunds are told apart by their key (`referral-…`, `promo:…`, `purchase-refund-…`).
 */
export function describeEntry(e: EntryRow): EntryView {
  const view = (label: EntryLabel, amount: number, back = 0): EntryView => ({
    label,
    amount: Math.abs(amount),
    back,
    at: e.createdAt,
    ...(e.request ? { request: e.request } : {}),
  });
  switch (e.kind) {
    case "grant":
      if (e.key.startsWith("welcome:")) return view("welcome", e.deltaAvailable);
      if (e.key.startsWith("referral-")) return view("referral-bonus", e.deltaAvailable);
      if (e.key.startsWith(promoKeyPrefix)) return view("promo", e.deltaAvailable);
      return view("grant", e.deltaAvailable);
    case "purchase":
      return view(e.key.startsWith(planPeriodPrefix) ? "plan" : "purchase", e.deltaAvailable);
    case "hold":
      return view("hold", e.deltaHeld);
    case "charge": {
      const spent = -(e.deltaAvailable + e.deltaHeld);
      return e.deltaAvailable > 0 ? view("charge-partial", spent, e.deltaAvailable) : view("charge", spent);
    }
    case "release":
      return view("release", e.deltaAvailable);
    case "refund":
      return view("refund", e.deltaAvailable);
    case "adjustment":
      if (e.key.startsWith(purchaseRefundPrefix)) return view("purchase-refund", e.deltaAvailable);
      if (e.key.startsWith("referral-revoke-")) return view("referral-revoke", e.deltaAvailable);
      return view(e.deltaAvailable >= 0 ? "adjustment-plus" : "adjustment-minus", e.deltaAvailable);
  }
}

/** A generation's hold key is `gen-<its id>` (generations/create.ts): its id, found by primary key; null for any other hold. */
const generationOfHold = sql`case when ${holds.key} ~ '^gen-[0-9a-f-]{36}$' then substring(${holds.key} from 5)::uuid end`;

/** An entry a later one of the same hold followed (a hold charged, released or refunded since). */
const superseded = sql`exists (select 1 from ${ledgerEntries} later where later.hold_id = ${ledgerEntries.holdId} and later.id > ${ledgerEntries.id})`;

/** The user's latest entries, newest first, with their requests; `finalOnly`: only each hold's last movement. */
const entriesQuery = (name: string, finalOnly: boolean) =>
  preparedQuery((db: Database) =>
    db
      .select({
        kind: ledgerEntries.kind,
        key: ledgerEntries.key,
        deltaAvailable: ledgerEntries.deltaAvailable,
        deltaHeld: ledgerEntries.deltaHeld,
        note: ledgerEntries.note,
        createdAt: ledgerEntries.createdAt,
        requestId: generations.id,
        operation: generations.operation,
        params: generations.params,
      })
      .from(ledgerEntries)
      .leftJoin(holds, eq(holds.id, ledgerEntries.holdId))
      .leftJoin(generations, eq(generations.id, generationOfHold))
      .where(
        and(eq(ledgerEntries.userId, sql.placeholder("userId")), finalOnly ? not(superseded) : undefined),
      )
      .orderBy(desc(ledgerEntries.id))
      .limit(sql.placeholder("limit"))
      .prepare(name),
  );

const latestQuery = entriesQuery("latest_entries", false);
const finalQuery = entriesQuery("final_entries", true);

type EntriesQuery = typeof latestQuery;

async function entriesWithRequests(query: EntriesQuery, db: Database, userId: number, limit: number) {
  const rows = await query(db).execute({ userId, limit });
  return rows.map(({ requestId, operation, params, ...entry }) => ({
    ...entry,
    request: requestId && operation && params ? { id: requestId, operation, params } : null,
  }));
}

/**
 * The user's latest ledger entries as recorded, newest first (an admin's /user
 * shows them so), each with the request its hold was for, when there is one.
 */
export function latestEntries(db: Database, userId: number, limit: number) {
  return entriesWithRequests(latestQuery, db, userId, limit);
}

/**
 * The user's latest movements as the user reads them, newest first: one per
 * request, its last (spent, returned, refunded, or still reserved), and every
 * other movement (grants, purchases) as it is.
 */
export async function recentEntries(db: Database, userId: number, limit: number): Promise<EntryView[]> {
  return (await entriesWithRequests(finalQuery, db, userId, limit)).map(describeEntry);
}
