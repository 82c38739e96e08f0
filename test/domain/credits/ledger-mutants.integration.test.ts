import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLedger, type Ledger } from "../../../src/domain/credits/ledger";
import { creditAccounts, holds, ledgerEntries } from "../../../src/platform/db/schema";
import { createTestDatabase, type TestDatabase } from "../../support/db";

/**
 * What the contract left unchecked and Stryker showed (docs/mutation-report.md):
 * each money path's own answer, notes kept for the operator, and the audit
 * finding each kind of corruption, on real Postgres.
 */
describe("credit ledger: the paths the contract does not pin", () => {
  let database: TestDatabase;
  let ledger: Ledger;
  let nextUser = 20_000;
  const newUser = () => nextUser++;

  beforeAll(async () => {
    database = await createTestDatabase();
    ledger = createLedger(database.db);
  });
  afterAll(async () => database?.drop());

  const entry = async (kind: string, key: string) =>
    (await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.key, key))).find(
      (e) => e.kind === kind,
    );
  const holdRow = async (key: string) =>
    (await database.db.select().from(holds).where(eq(holds.key, key)))[0];

  test("a purchase is recorded as one, a grant by default as a grant; another kind is refused", async () => {
    const u = newUser();
    await ledger.grant({ userId: u, amount: 5, key: `p-${u}`, kind: "purchase", note: "stars" });
    await ledger.grant({ userId: u, amount: 5, key: `g-${u}` });
    await ledger.grant({ userId: u, amount: 1, key: `g2-${u}`, kind: "grant" });
    expect(await entry("purchase", `p-${u}`)).toMatchObject({ deltaAvailable: 5, note: "stars" });
    expect(await entry("grant", `g-${u}`)).toMatchObject({ deltaAvailable: 5, note: null });
    await expect(
      ledger.grant({ userId: u, amount: 5, key: `x-${u}`, kind: "refund" as "grant" }),
    ).rejects.toThrow();
    expect(await ledger.account(u)).toEqual({ userId: u, available: 11, held: 0 });
  });

  test("notes and reasons up to 500 characters are kept; longer ones are refused", async () => {
    const u = newUser();
    const long = "n".repeat(501);
    await expect(ledger.grant({ userId: u, amount: 9, key: `g0-${u}`, note: long })).rejects.toThrow();
    await ledger.grant({ userId: u, amount: 9, key: `g-${u}`, note: "welcome" });
    await ledger.hold({ userId: u, amount: 3, key: `h-${u}` });
    await expect(ledger.release({ key: `h-${u}`, reason: long })).rejects.toThrow();
    expect(await ledger.release({ key: `h-${u}`, reason: "failed: task_failed" })).toEqual({
      ok: true,
      released: 3,
      applied: true,
    });
    expect(await holdRow(`h-${u}`)).toMatchObject({ state: "released", reason: "failed: task_failed" });
    expect(await entry("release", `h-${u}`)).toMatchObject({ note: "failed: task_failed" });
    await ledger.hold({ userId: u, amount: 3, key: `h2-${u}` });
    await ledger.charge({ key: `h2-${u}` });
    await expect(ledger.refund({ holdKey: `h2-${u}`, key: `r0-${u}`, note: long })).rejects.toThrow();
    await ledger.refund({ holdKey: `h2-${u}`, key: `r-${u}`, note: "undeliverable" });
    expect(await entry("refund", `r-${u}`)).toMatchObject({ note: "undeliverable", deltaAvailable: 3 });
    await expect(ledger.adjust({ userId: u, amount: 1, key: `a0-${u}`, note: long })).rejects.toThrow();
    await ledger.adjust({ userId: u, amount: 1, key: `a-${u}`, note: "goodwill" });
    expect(await entry("adjustment", `a-${u}`)).toMatchObject({ note: "goodwill", deltaAvailable: 1 });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 10, held: 0 });
    // this user's entries: tests below corrupt other users' rows on purpose
    expect(await ledger.audit({ userId: u })).toEqual([]);
  });

  test("an open hold released gives the credits back once; a repeat says so; an unknown one is not found", async () => {
    const u = newUser();
    await ledger.grant({ userId: u, amount: 10, key: `g-${u}` });
    await ledger.hold({ userId: u, amount: 4, key: `h-${u}` });
    expect(await ledger.release({ key: `h-${u}` })).toEqual({ ok: true, released: 4, applied: true });
    expect(await ledger.release({ key: `h-${u}` })).toEqual({ ok: true, released: 4, applied: false });
    expect(await ledger.release({ key: `nope-${u}` })).toEqual({ ok: false, reason: "not_found" });
    expect(await ledger.charge({ key: `h-${u}` })).toEqual({ ok: false, reason: "already_released" });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 10, held: 0 });
    expect(await holdRow(`h-${u}`)).toMatchObject({ state: "released", reason: null });
    // this user's entries: tests below corrupt other users' rows on purpose
    expect(await ledger.audit({ userId: u })).toEqual([]);
  });

  test("a hold repeated after the balance was spent reports the same hold, not insufficient", async () => {
    const u = newUser();
    await ledger.grant({ userId: u, amount: 10, key: `g-${u}` });
    const first = await ledger.hold({ userId: u, amount: 8, key: `h-${u}` });
    expect(await ledger.hold({ userId: u, amount: 8, key: `h-${u}` })).toEqual({
      ok: true,
      holdId: first.ok ? first.holdId : "none",
      applied: false,
    });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 2, held: 8 });
  });

  test("a hold key reused for another amount or another user is an error, not a silent success", async () => {
    const u = newUser();
    const v = newUser();
    await ledger.grant({ userId: u, amount: 10, key: `g-${u}` });
    await ledger.grant({ userId: v, amount: 10, key: `g-${v}` });
    await ledger.hold({ userId: u, amount: 3, key: `h-${u}` });
    await expect(ledger.hold({ userId: u, amount: 4, key: `h-${u}` })).rejects.toThrow(/already used/);
    await expect(ledger.hold({ userId: v, amount: 3, key: `h-${u}` })).rejects.toThrow(/already used/);
    expect(await ledger.account(u)).toEqual({ userId: u, available: 7, held: 3 });
    expect(await ledger.account(v)).toEqual({ userId: v, available: 10, held: 0 });
  });

  test("refunds: of an unknown hold, of the rest after a partial one, and nothing once all is back", async () => {
    const u = newUser();
    await ledger.grant({ userId: u, amount: 10, key: `g-${u}` });
    expect(await ledger.refund({ holdKey: `nope-${u}`, key: `r-${u}` })).toEqual({
      ok: false,
      reason: "not_found",
    });
    await ledger.hold({ userId: u, amount: 6, key: `h-${u}` });
    await ledger.charge({ key: `h-${u}` });
    expect(await ledger.refund({ holdKey: `h-${u}`, key: `r1-${u}`, amount: 4 })).toEqual({
      ok: true,
      refunded: 4,
      applied: true,
    });
    expect(await ledger.refund({ holdKey: `h-${u}`, key: `r1-${u}`, amount: 4 })).toEqual({
      ok: true,
      refunded: 0,
      applied: false,
    });
    // without an amount: what is left of the charge
    expect(await ledger.refund({ holdKey: `h-${u}`, key: `r2-${u}` })).toEqual({
      ok: true,
      refunded: 2,
      applied: true,
    });
    expect(await ledger.refund({ holdKey: `h-${u}`, key: `r3-${u}` })).toEqual({
      ok: false,
      reason: "exceeds_charge",
    });
    // a hold charged 0 has nothing to give back
    await ledger.hold({ userId: u, amount: 2, key: `h0-${u}` });
    await ledger.charge({ key: `h0-${u}`, amount: 0 });
    expect(await ledger.refund({ holdKey: `h0-${u}`, key: `r0-${u}` })).toEqual({
      ok: false,
      reason: "exceeds_charge",
    });
    expect(await entry("refund", `r3-${u}`)).toBeUndefined();
    expect(await entry("refund", `r0-${u}`)).toBeUndefined();
    expect(await ledger.account(u)).toEqual({ userId: u, available: 10, held: 0 });
    // this user's entries: tests below corrupt other users' rows on purpose
    expect(await ledger.audit({ userId: u })).toEqual([]);
  });

  test("an adjustment is applied once per key, and one of 0 is refused", async () => {
    const u = newUser();
    await ledger.grant({ userId: u, amount: 10, key: `g-${u}` });
    expect(await ledger.adjust({ userId: u, amount: -3, key: `a-${u}` })).toEqual({
      ok: true,
      applied: true,
    });
    expect(await ledger.adjust({ userId: u, amount: -3, key: `a-${u}` })).toEqual({
      ok: true,
      applied: false,
    });
    await expect(ledger.adjust({ userId: u, amount: 0, key: `a0-${u}` })).rejects.toThrow(/changes nothing/);
    expect(await ledger.account(u)).toEqual({ userId: u, available: 7, held: 0 });
  });

  test("takeUpTo takes what is there and reports the rest, never below zero, once per key; moved reads an entry's amount", async () => {
    const u = newUser();
    await ledger.grant({ userId: u, amount: 7, key: `g-${u}` });
    expect(await ledger.takeUpTo({ userId: u, amount: 5, key: `t1-${u}`, note: "abuse" })).toEqual({
      taken: 5,
      notTaken: 0,
      applied: true,
    });
    expect(await entry("adjustment", `t1-${u}`)).toMatchObject({ deltaAvailable: -5, note: "abuse" });
    expect(await ledger.takeUpTo({ userId: u, amount: 10, key: `t2-${u}` })).toEqual({
      taken: 2,
      notTaken: 8,
      applied: true,
    });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 0, held: 0 });
    // a repeated key takes nothing more, even once there is something to take
    await ledger.grant({ userId: u, amount: 4, key: `g2-${u}` });
    expect(await ledger.takeUpTo({ userId: u, amount: 3, key: `t1-${u}` })).toEqual({
      taken: 0,
      notTaken: 0,
      applied: false,
    });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 4, held: 0 });
    // nothing there (a user never seen): nothing taken, no entry written
    const empty = newUser();
    expect(await ledger.takeUpTo({ userId: empty, amount: 3, key: `t3-${empty}` })).toEqual({
      taken: 0,
      notTaken: 3,
      applied: true,
    });
    expect(await entry("adjustment", `t3-${empty}`)).toBeUndefined();

    expect(await ledger.moved("adjustment", `t2-${u}`)).toBe(-2);
    expect(await ledger.moved("grant", `g2-${u}`)).toBe(4);
    expect(await ledger.moved("grant", `t2-${u}`)).toBe(0);
    expect(await ledger.moved("adjustment", `none-${u}`)).toBe(0);
    expect(await ledger.audit({ userId: u })).toEqual([]);
  });

  test("a database error inside a ledger transaction is thrown, not swallowed", async () => {
    const u = newUser();
    await ledger.grant({ userId: u, amount: 1_000_000_000, key: `g1-${u}` });
    await ledger.grant({ userId: u, amount: 1_000_000_000, key: `g2-${u}` });
    // past the integer column's range: Postgres refuses, the ledger must say so
    await expect(ledger.grant({ userId: u, amount: 1_000_000_000, key: `g3-${u}` })).rejects.toThrow();
    expect(await ledger.account(u)).toEqual({ userId: u, available: 2_000_000_000, held: 0 });
  });

  describe("the audit finds each kind of corruption", () => {
    /** a user with a charged hold, a released one and an open one; the audit clean */
    async function sound() {
      const u = newUser();
      await ledger.grant({ userId: u, amount: 20, key: `g-${u}` });
      await ledger.hold({ userId: u, amount: 5, key: `hc-${u}` });
      await ledger.charge({ key: `hc-${u}` });
      await ledger.hold({ userId: u, amount: 3, key: `hr-${u}` });
      await ledger.release({ key: `hr-${u}` });
      await ledger.hold({ userId: u, amount: 2, key: `ho-${u}` });
      expect(await ledger.audit({ userId: u })).toEqual([]);
      return u;
    }
    const problems = async (u: number) => (await ledger.audit({ userId: u })).map((v) => v.problem);

    test("balance row off from its entries (available, then held)", async () => {
      const u = await sound();
      await database.db
        .update(creditAccounts)
        .set({ available: sql`${creditAccounts.available} + 1` })
        .where(eq(creditAccounts.userId, u));
      expect(await problems(u)).toEqual(["entries sum to 13/2, balance row says 14/2"]);
      const v = await sound();
      await database.db
        .update(creditAccounts)
        .set({ held: sql`${creditAccounts.held} + 1` })
        .where(eq(creditAccounts.userId, v));
      expect(await problems(v)).toEqual([
        "entries sum to 13/2, balance row says 13/3",
        "open holds 2 != held 3",
      ]);
      // scoped: another user's corruption is not this user's
      expect(await ledger.audit({ userId: newUser() })).toEqual([]);
      expect((await ledger.audit()).map((x) => x.userId)).toEqual(expect.arrayContaining([u, v]));
    });

    test("a negative balance (with the CHECK constraint gone)", async () => {
      const u = await sound();
      await database.db.execute(
        sql`alter table credit_accounts drop constraint credit_accounts_available_nonnegative`,
      );
      await database.db.insert(ledgerEntries).values({
        userId: u,
        kind: "adjustment",
        key: `neg-${u}`,
        deltaAvailable: -20,
        deltaHeld: 0,
      });
      await database.db
        .update(creditAccounts)
        .set({ available: sql`${creditAccounts.available} - 20` })
        .where(eq(creditAccounts.userId, u));
      expect(await problems(u)).toEqual(["available is -7"]);
    });

    test("a hold resolved twice, a hold whose state disagrees with its entries, a missing hold entry, refunds off", async () => {
      const u = await sound();
      const hc = await holdRow(`hc-${u}`);
      const hr = await holdRow(`hr-${u}`);
      const ho = await holdRow(`ho-${u}`);
      // a second resolution of the charged hold, with no effect on the balance
      await database.db.insert(ledgerEntries).values({
        userId: u,
        kind: "release",
        key: `hc2-${u}`,
        deltaAvailable: 0,
        deltaHeld: 0,
        holdId: hc?.id,
      });
      expect(await ledger.audit({ userId: u })).toEqual([
        { holdId: hc?.id, problem: "hold resolved more than once" },
      ]);

      const v = await sound();
      const vr = await holdRow(`hr-${v}`);
      // released in its row, but its release entry says charge
      await database.db.execute(
        sql`update ledger_entries set kind = 'charge' where kind = 'release' and key = ${`hr-${v}`}`,
      );
      expect(await ledger.audit({ userId: v })).toEqual([
        { holdId: vr?.id, problem: "state released with 1 charge(s), 0 release(s)" },
      ]);

      const w = await sound();
      const wc = await holdRow(`hc-${w}`);
      // charged in its row, released in its entries
      await database.db.execute(
        sql`update ledger_entries set kind = 'release' where kind = 'charge' and key = ${`hc-${w}`}`,
      );
      expect(await ledger.audit({ userId: w })).toEqual([
        { holdId: wc?.id, problem: "state charged with 0 charge(s), 1 release(s)" },
      ]);

      const x = await sound();
      const xo = await holdRow(`ho-${x}`);
      // open in its row, a charge among its entries
      await database.db.insert(ledgerEntries).values({
        userId: x,
        kind: "charge",
        key: `xo-${x}`,
        deltaAvailable: 0,
        deltaHeld: 0,
        holdId: xo?.id,
      });
      expect(await ledger.audit({ userId: x })).toEqual([
        { holdId: xo?.id, problem: "state open with 1 charge(s), 0 release(s)" },
      ]);
      const x2 = await sound();
      const x2o = await holdRow(`ho-${x2}`);
      // open in its row, a release among its entries
      await database.db.insert(ledgerEntries).values({
        userId: x2,
        kind: "release",
        key: `xo-${x2}`,
        deltaAvailable: 0,
        deltaHeld: 0,
        holdId: x2o?.id,
      });
      expect(await ledger.audit({ userId: x2 })).toEqual([
        { holdId: x2o?.id, problem: "state open with 0 charge(s), 1 release(s)" },
      ]);

      const y = await sound();
      const yo = await holdRow(`ho-${y}`);
      // the hold entry no longer points at its hold
      await database.db.execute(
        sql`update ledger_entries set hold_id = null where kind = 'hold' and key = ${`ho-${y}`}`,
      );
      expect(await ledger.audit({ userId: y })).toEqual([{ holdId: yo?.id, problem: "0 hold entries" }]);

      const z = await sound();
      const zc = await holdRow(`hc-${z}`);
      await database.db
        .update(holds)
        .set({ refundedAmount: 1 })
        .where(eq(holds.key, `hc-${z}`));
      expect(await ledger.audit({ userId: z })).toEqual([
        { holdId: zc?.id, problem: "refund entries 0 != 1" },
      ]);

      // every problem above is scoped to its user: a sound user stays clean
      expect(await ledger.audit({ userId: await sound() })).toEqual([]);
      expect([hr?.state, ho?.state]).toEqual(["released", "open"]);
    });
  });
});
