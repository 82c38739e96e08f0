import { and, eq, gte, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Executor } from "../../platform/db/client";
import { preparedQuery } from "../../platform/db/prepared-statements";
import { creditAccounts, type EntryKind, holds, ledgerEntries } from "../../platform/db/schema";

/**
 * Two-phase credit ledger. Every mutation is one transaction (a savepoint when
 * the caller passes its own transaction) that appends entries and moves the
 * balance row by conditional UPDATEs. Idempotency comes from unique keys: a
 * repeated call reports `applied: false` and changes nothing.
 */

const userId = z.number().int().positive();
const amount = z.number().int().positive().max(1_000_000_000);
const key = z.string().min(1).max(200);

const grantInput = z.object({
  userId,
  amount,
  key,
  kind: z.enum(["grant", "purchase"]).default("grant"),
  note: z.string().max(500).optional(),
});
const holdInput = z.object({ userId, amount, key });
const chargeInput = z.object({ key, amount: z.number().int().min(0).optional() });
const releaseInput = z.object({ key, reason: z.string().max(500).optional() });
const refundInput = z.object({
  holdKey: key,
  key,
  amount: amount.optional(),
  note: z.string().max(500).optional(),
});
const adjustInput = z.object({
  userId,
  amount: z
    .number()
    .int()
    .refine((n) => n !== 0, "an adjustment of 0 changes nothing"),
  key,
  note: z.string().max(500).optional(),
});

export type GrantInput = z.input<typeof grantInput>;
export type HoldInput = z.input<typeof holdInput>;
export type ChargeInput = z.input<typeof chargeInput>;
export type ReleaseInput = z.input<typeof releaseInput>;
export type RefundInput = z.input<typeof refundInput>;
export type AdjustInput = z.input<typeof adjustInput>;

export type HoldResult =
  | { ok: true; holdId: string; applied: boolean }
  | { ok: false; reason: "insufficient"; available: number; missing: number };
export type ChargeResult =
  | { ok: true; charged: number; applied: boolean }
  | { ok: false; reason: "not_found" | "already_released" | "exceeds_hold" };
export type ReleaseResult =
  | { ok: true; released: number; applied: boolean }
  | { ok: false; reason: "not_found" | "already_charged" };
export type RefundResult =
  | { ok: true; refunded: number; applied: boolean }
  | { ok: false; reason: "not_found" | "not_charged" | "exceeds_charge" };
export type AdjustResult =
  | { ok: true; applied: boolean }
  | { ok: false; reason: "insufficient"; available: number; missing: number };

export interface Account {
  userId: number;
  available: number;
  held: number;
}

export interface AuditViolation {
  userId?: number;
  holdId?: string;
  problem: string;
}

/** Thrown inside a transaction to undo it; never escapes the ledger. */
class Undo<T> extends Error {
  constructor(readonly result: T) {
    super("ledger: undo");
  }
}

async function undoable<T>(ex: Executor, work: (tx: Executor) => Promise<T>): Promise<T> {
  try {
    return await ex.transaction(work);
  } catch (err) {
    if (err instanceof Undo) return err.result as T;
    throw err;
  }
}

async function ensureAccount(ex: Executor, id: number): Promise<void> {
  await ex.insert(creditAccounts).values({ userId: id }).onConflictDoNothing();
}

async function insertEntry(
  ex: Executor,
  entry: {
    userId: number;
    kind: EntryKind;
    key: string;
    deltaAvailable: number;
    deltaHeld: number;
    holdId?: string;
    note?: string | undefined;
  },
): Promise<boolean> {
  const rows = await ex
    .insert(ledgerEntries)
    .values({ ...entry, note: entry.note ?? null })
    .onConflictDoNothing()
    .returning({ id: ledgerEntries.id });
  return rows.length === 1;
}

async function moveBalance(
  ex: Executor,
  id: number,
  deltaAvailable: number,
  deltaHeld: number,
): Promise<boolean> {
  const rows = await ex
    .update(creditAccounts)
    .set({
      available: sql`${creditAccounts.available} + ${deltaAvailable}`,
      held: sql`${creditAccounts.held} + ${deltaHeld}`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(creditAccounts.userId, id),
        gte(creditAccounts.available, -deltaAvailable),
        gte(creditAccounts.held, -deltaHeld),
      ),
    )
    .returning({ userId: creditAccounts.userId });
  return rows.length === 1;
}

async function availableOf(ex: Executor, id: number): Promise<number> {
  const [row] = await ex
    .select({ available: creditAccounts.available })
    .from(creditAccounts)
    .where(eq(creditAccounts.userId, id));
  return row?.available ?? 0;
}

async function findHold(ex: Executor, holdKey: string) {
  const [row] = await ex.select().from(holds).where(eq(holds.key, holdKey));
  return row;
}

const accountQuery = preparedQuery((db: Database) =>
  db
    .select({ available: creditAccounts.available, held: creditAccounts.held })
    .from(creditAccounts)
    .where(eq(creditAccounts.userId, sql.placeholder("id")))
    .prepare("credit_account"),
);

export function createLedger(db: Database) {
  /** The balance; read in `ex` when it is a transaction (that transaction's view). */
  async function account(id: number, ex: Executor = db): Promise<Account> {
    const [row] =
      ex === db
        ? await accountQuery(db).execute({ id })
        : await ex
            .select({ available: creditAccounts.available, held: creditAccounts.held })
            .from(creditAccounts)
            .where(eq(creditAccounts.userId, id));
    return { userId: id, available: row?.available ?? 0, held: row?.held ?? 0 };
  }

  async function grant(input: GrantInput, ex: Executor = db): Promise<{ ok: true; applied: boolean }> {
    const g = grantInput.parse(input);
    return undoable(ex, async (tx) => {
      await ensureAccount(tx, g.userId);
      const fresh = await insertEntry(tx, {
        userId: g.userId,
        kind: g.kind,
        key: g.key,
        deltaAvailable: g.amount,
        deltaHeld: 0,
        note: g.note,
      });
      if (!fresh) return { ok: true as const, applied: false };
      await moveBalance(tx, g.userId, g.amount, 0);
      return { ok: true as const, applied: true };
    });
  }

  async function hold(input: HoldInput, ex: Executor = db): Promise<HoldResult> {
    const h = holdInput.parse(input);
    const existing = await findHold(ex, h.key);
    if (existing) return sameHold(existing, h);
    const result = await undoable<HoldResult | "raced">(ex, async (tx) => {
      await ensureAccount(tx, h.userId);
      // The hold row before the balance: charge, release and refund lock the hold and then
      // the account, and taking them in the other order here could deadlock with them.
      const [row] = await tx
        .insert(holds)
        .values({ key: h.key, userId: h.userId, amount: h.amount })
        .onConflictDoNothing()
        .returning({ id: holds.id });
      // Another caller created this hold first: report theirs.
      if (!row) throw new Undo<"raced">("raced");
      if (!(await moveBalance(tx, h.userId, -h.amount, h.amount))) {
        const available = await availableOf(tx, h.userId);
        throw new Undo<HoldResult>({
          ok: false,
          reason: "insufficient",
          available,
          missing: h.amount - available,
        });
      }
      await insertEntry(tx, {
        userId: h.userId,
        kind: "hold",
        key: h.key,
        deltaAvailable: -h.amount,
        deltaHeld: h.amount,
        holdId: row.id,
      });
      return { ok: true, holdId: row.id, applied: true };
    });
    if (result !== "raced") return result;
    const winner = await findHold(ex, h.key);
    if (!winner) throw new Error(`ledger: hold ${h.key} vanished after a conflict`);
    return sameHold(winner, h);
  }

  function sameHold(row: typeof holds.$inferSelect, h: z.infer<typeof holdInput>): HoldResult {
    if (row.userId !== h.userId || row.amount !== h.amount) {
      throw new Error(`ledger: hold key ${h.key} was already used for another user or amount`);
    }
    return { ok: true, holdId: row.id, applied: false };
  }

  async function charge(input: ChargeInput, ex: Executor = db): Promise<ChargeResult> {
    const c = chargeInput.parse(input);
    return undoable<ChargeResult>(ex, async (tx) => {
      const current = await findHold(tx, c.key);
      if (!current) return { ok: false, reason: "not_found" };
      const wanted = c.amount ?? current.amount;
      if (wanted > current.amount) return { ok: false, reason: "exceeds_hold" };
      const [moved] = await tx
        .update(holds)
        .set({ state: "charged", chargedAmount: wanted, resolvedAt: sql`now()` })
        .where(and(eq(holds.key, c.key), eq(holds.state, "open")))
        .returning();
      if (!moved) {
        const now = await findHold(tx, c.key);
        if (now?.state === "charged") return { ok: true, charged: now.chargedAmount ?? 0, applied: false };
        return { ok: false, reason: "already_released" };
      }
      const back = moved.amount - wanted;
      if (!(await moveBalance(tx, moved.userId, back, -moved.amount))) {
        throw new Error(`ledger: balance of user ${moved.userId} does not cover hold ${c.key}`);
      }
      await insertEntry(tx, {
        userId: moved.userId,
        kind: "charge",
        key: c.key,
        deltaAvailable: back,
        deltaHeld: -moved.amount,
        holdId: moved.id,
      });
      return { ok: true, charged: wanted, applied: true };
    });
  }

  async function release(input: ReleaseInput, ex: Executor = db): Promise<ReleaseResult> {
    const r = releaseInput.parse(input);
    return undoable<ReleaseResult>(ex, async (tx) => {
      const [moved] = await tx
        .update(holds)
        .set({ state: "released", resolvedAt: sql`now()`, reason: r.reason ?? null })
        .where(and(eq(holds.key, r.key), eq(holds.state, "open")))
        .returning();
      if (!moved) {
        const now = await findHold(tx, r.key);
        if (!now) return { ok: false, reason: "not_found" };
        if (now.state === "released") return { ok: true, released: now.amount, applied: false };
        return { ok: false, reason: "already_charged" };
      }
      if (!(await moveBalance(tx, moved.userId, moved.amount, -moved.amount))) {
        throw new Error(`ledger: balance of user ${moved.userId} does not cover hold ${r.key}`);
      }
      await insertEntry(tx, {
        userId: moved.userId,
        kind: "release",
        key: r.key,
        deltaAvailable: moved.amount,
        deltaHeld: -moved.amount,
        holdId: moved.id,
        note: r.reason,
      });
      return { ok: true, released: moved.amount, applied: true };
    });
  }

  /** Gives back credits of a charged hold (all that is left of the charge by default). */
  async function refund(input: RefundInput, ex: Executor = db): Promise<RefundResult> {
    const r = refundInput.parse(input);
    return undoable<RefundResult>(ex, async (tx) => {
      const current = await findHold(tx, r.holdKey);
      if (!current) return { ok: false, reason: "not_found" };
      if (current.state !== "charged") return { ok: false, reason: "not_charged" };
      const left = (current.chargedAmount ?? 0) - current.refundedAmount;
      const wanted = r.amount ?? left;
      const fresh = await insertEntry(tx, {
        userId: current.userId,
        kind: "refund",
        key: r.key,
        deltaAvailable: wanted,
        deltaHeld: 0,
        holdId: current.id,
        note: r.note,
      });
      if (!fresh) return { ok: true, refunded: 0, applied: false };
      if (wanted <= 0) throw new Undo<RefundResult>({ ok: false, reason: "exceeds_charge" });
      const [moved] = await tx
        .update(holds)
        .set({ refundedAmount: sql`${holds.refundedAmount} + ${wanted}` })
        .where(
          and(
            eq(holds.id, current.id),
            eq(holds.state, "charged"),
            sql`${holds.refundedAmount} + ${wanted} <= ${holds.chargedAmount}`,
          ),
        )
        .returning({ id: holds.id });
      if (!moved) throw new Undo<RefundResult>({ ok: false, reason: "exceeds_charge" });
      await moveBalance(tx, current.userId, wanted, 0);
      return { ok: true, refunded: wanted, applied: true };
    });
  }

  /** An operator's correction of available credits, positive or negative. */
  async function adjust(input: AdjustInput, ex: Executor = db): Promise<AdjustResult> {
    const a = adjustInput.parse(input);
    return undoable<AdjustResult>(ex, async (tx) => {
      await ensureAccount(tx, a.userId);
      const fresh = await insertEntry(tx, {
        userId: a.userId,
        kind: "adjustment",
        key: a.key,
        deltaAvailable: a.amount,
        deltaHeld: 0,
        note: a.note,
      });
      if (!fresh) return { ok: true, applied: false };
      if (!(await moveBalance(tx, a.userId, a.amount, 0))) {
        const available = await availableOf(tx, a.userId);
        throw new Undo<AdjustResult>({
          ok: false,
          reason: "insufficient",
          available,
          missing: -a.amount - available,
        });
      }
      return { ok: true, applied: true };
    });
  }

  /**
   * Takes up to `amount` of the user's available credits (an adjustment),
   * never below zero: with the account locked, what is there is taken and
   * the rest reported. Idempotent on `key` (a repeat takes nothing more).
   */
  async function takeUpTo(
    input: { userId: number; amount: number; key: string; note?: string | undefined },
    ex: Executor = db,
  ): Promise<{ taken: number; notTaken: number; applied: boolean }> {
    return undoable(ex, async (tx) => {
      await ensureAccount(tx, input.userId);
      const [row] = await tx
        .select({ available: creditAccounts.available })
        .from(creditAccounts)
        .where(eq(creditAccounts.userId, input.userId))
        .for("update");
      const taken = Math.min(input.amount, row?.available ?? 0);
      if (taken <= 0) return { taken: 0, notTaken: input.amount, applied: true };
      const result = await adjust(
        { userId: input.userId, amount: -taken, key: input.key, note: input.note },
        tx,
      );
      if (!result.ok) throw new Error(`ledger: taking ${taken} failed with the account locked`);
      return result.applied
        ? { taken, notTaken: input.amount - taken, applied: true }
        : { taken: 0, notTaken: 0, applied: false };
    });
  }

  /** What the entry of `kind` under `key` moved on the balance; 0 when there is none. */
  async function moved(kind: EntryKind, key: string, ex: Executor = db): Promise<number> {
    const [row] = await ex
      .select({ amount: ledgerEntries.deltaAvailable })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, kind), eq(ledgerEntries.key, key)));
    return row?.amount ?? 0;
  }

  /**
   * Every violation of the ledger's invariants; an empty list means sound.
   * Its reads share one snapshot: read one by one, a hold charged between the
   * balance read and the holds read looks like a broken ledger.
   */
  async function audit(scope: { userId?: number } = {}, ex?: Executor): Promise<AuditViolation[]> {
    if (ex) return auditIn(scope, ex);
    return db.transaction((tx) => auditIn(scope, tx), {
      isolationLevel: "repeatable read",
      accessMode: "read only",
    });
  }

  async function auditIn(scope: { userId?: number }, ex: Executor): Promise<AuditViolation[]> {
    const violations: AuditViolation[] = [];
    const only = scope.userId;
    const accounts = await ex
      .select()
      .from(creditAccounts)
      .where(only === undefined ? undefined : eq(creditAccounts.userId, only));
    const sums = await ex
      .select({
        userId: ledgerEntries.userId,
        available: sql<number>`coalesce(sum(${ledgerEntries.deltaAvailable}), 0)`.mapWith(Number),
        held: sql<number>`coalesce(sum(${ledgerEntries.deltaHeld}), 0)`.mapWith(Number),
      })
      .from(ledgerEntries)
      .where(only === undefined ? undefined : eq(ledgerEntries.userId, only))
      .groupBy(ledgerEntries.userId);
    const openHolds = await ex
      .select({
        userId: holds.userId,
        held: sql<number>`coalesce(sum(${holds.amount}), 0)`.mapWith(Number),
      })
      .from(holds)
      .where(and(eq(holds.state, "open"), only === undefined ? undefined : eq(holds.userId, only)))
      .groupBy(holds.userId);
    const entrySums = new Map(sums.map((s) => [s.userId, s]));
    const openByUser = new Map(openHolds.map((h) => [h.userId, h.held]));
    for (const a of accounts) {
      const s = entrySums.get(a.userId) ?? { available: 0, held: 0 };
      if (a.available < 0) violations.push({ userId: a.userId, problem: `available is ${a.available}` });
      if (s.available !== a.available || s.held !== a.held) {
        violations.push({
          userId: a.userId,
          problem: `entries sum to ${s.available}/${s.held}, balance row says ${a.available}/${a.held}`,
        });
      }
      const open = openByUser.get(a.userId) ?? 0;
      if (open !== a.held)
        violations.push({ userId: a.userId, problem: `open holds ${open} != held ${a.held}` });
    }

    const perHold = await ex
      .select({
        holdId: holds.id,
        state: holds.state,
        charges: sql<number>`count(*) filter (where ${ledgerEntries.kind} = 'charge')`.mapWith(Number),
        releases: sql<number>`count(*) filter (where ${ledgerEntries.kind} = 'release')`.mapWith(Number),
        holdsPosted: sql<number>`count(*) filter (where ${ledgerEntries.kind} = 'hold')`.mapWith(Number),
        refunded:
          sql<number>`coalesce(sum(${ledgerEntries.deltaAvailable}) filter (where ${ledgerEntries.kind} = 'refund'), 0)`.mapWith(
            Number,
          ),
        refundedAmount: holds.refundedAmount,
      })
      .from(holds)
      .leftJoin(ledgerEntries, eq(ledgerEntries.holdId, holds.id))
      .where(only === undefined ? undefined : eq(holds.userId, only))
      .groupBy(holds.id);
    for (const h of perHold) {
      const expected = { open: [0, 0], charged: [1, 0], released: [0, 1] }[h.state];
      if (h.charges + h.releases > 1) {
        violations.push({ holdId: h.holdId, problem: "hold resolved more than once" });
      } else if (!expected || h.charges !== expected[0] || h.releases !== expected[1]) {
        violations.push({
          holdId: h.holdId,
          problem: `state ${h.state} with ${h.charges} charge(s), ${h.releases} release(s)`,
        });
      }
      if (h.holdsPosted !== 1)
        violations.push({ holdId: h.holdId, problem: `${h.holdsPosted} hold entries` });
      if (h.refunded !== h.refundedAmount) {
        violations.push({ holdId: h.holdId, problem: `refund entries ${h.refunded} != ${h.refundedAmount}` });
      }
    }
    return violations;
  }

  return {
    account,
    grant,
    hold,
    charge,
    release,
    refund,
    adjust,
    takeUpTo,
    moved,
    audit,
    ensureAccount: (id: number) => ensureAccount(db, id),
  };
}

export type Ledger = ReturnType<typeof createLedger>;
export type Credits = Ledger;
