import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLedger, type Ledger } from "../../../src/domain/credits/ledger";
import type { TestDatabase } from "../../support/db";

/**
 * The ledger's contract, run against any database: real Postgres and embedded
 * PGlite both pass the same suite.
 */
export function ledgerContract(
  name: string,
  open: () => Promise<TestDatabase>,
  full: { concurrency: number; runs: number },
) {
  // MUTATION_FAST=1 (npm run mutation): the same tests at a size one mutant can afford
  // (still more than 100 concurrent holds); CI and `npm test` keep the full counts
  const opts = process.env.MUTATION_FAST === "1" ? { concurrency: 120, runs: 50 } : full;
  describe(`credit ledger on ${name}`, () => {
    let database: TestDatabase;
    let ledger: Ledger;
    let nextUser = 1000;
    const newUser = () => nextUser++;

    beforeAll(async () => {
      database = await open();
      ledger = createLedger(database.db);
    });
    afterAll(async () => {
      await database?.drop();
    });

    test("grant is applied once per key", async () => {
      const u = newUser();
      expect(await ledger.grant({ userId: u, amount: 50, key: `g-${u}` })).toEqual({
        ok: true,
        applied: true,
      });
      expect(await ledger.grant({ userId: u, amount: 50, key: `g-${u}` })).toEqual({
        ok: true,
        applied: false,
      });
      expect(await ledger.account(u)).toEqual({ userId: u, available: 50, held: 0 });
    });

    test("a hold larger than the balance fails cleanly and says what is missing", async () => {
      const u = newUser();
      await ledger.grant({ userId: u, amount: 5, key: `g-${u}` });
      expect(await ledger.hold({ userId: u, amount: 8, key: `h-${u}` })).toEqual({
        ok: false,
        reason: "insufficient",
        available: 5,
        missing: 3,
      });
      expect(await ledger.account(u)).toEqual({ userId: u, available: 5, held: 0 });
      expect(await ledger.audit()).toEqual([]);
    });

    test("charge for less returns the difference; the hold cannot then be released", async () => {
      const u = newUser();
      await ledger.grant({ userId: u, amount: 10, key: `g-${u}` });
      const h = await ledger.hold({ userId: u, amount: 8, key: `h-${u}` });
      expect(h).toMatchObject({ ok: true, applied: true });
      expect(await ledger.account(u)).toEqual({ userId: u, available: 2, held: 8 });
      expect(await ledger.charge({ key: `h-${u}`, amount: 4 })).toEqual({
        ok: true,
        charged: 4,
        applied: true,
      });
      expect(await ledger.charge({ key: `h-${u}`, amount: 4 })).toEqual({
        ok: true,
        charged: 4,
        applied: false,
      });
      expect(await ledger.release({ key: `h-${u}` })).toEqual({ ok: false, reason: "already_charged" });
      expect(await ledger.account(u)).toEqual({ userId: u, available: 6, held: 0 });
      expect(await ledger.audit()).toEqual([]);
    });

    test("a charge beyond the hold, or of an unknown hold, changes nothing", async () => {
      const u = newUser();
      await ledger.grant({ userId: u, amount: 10, key: `g-${u}` });
      await ledger.hold({ userId: u, amount: 3, key: `h-${u}` });
      expect(await ledger.charge({ key: `h-${u}`, amount: 4 })).toEqual({
        ok: false,
        reason: "exceeds_hold",
      });
      expect(await ledger.charge({ key: `nope-${u}` })).toEqual({ ok: false, reason: "not_found" });
      expect(await ledger.account(u)).toEqual({ userId: u, available: 7, held: 3 });
    });

    test("refund gives back at most what was charged, once per key", async () => {
      const u = newUser();
      await ledger.grant({ userId: u, amount: 10, key: `g-${u}` });
      await ledger.hold({ userId: u, amount: 6, key: `h-${u}` });
      expect(await ledger.refund({ holdKey: `h-${u}`, key: `r0-${u}` })).toEqual({
        ok: false,
        reason: "not_charged",
      });
      await ledger.charge({ key: `h-${u}` });
      expect(await ledger.refund({ holdKey: `h-${u}`, key: `r1-${u}`, amount: 4 })).toMatchObject({
        refunded: 4,
      });
      expect(await ledger.refund({ holdKey: `h-${u}`, key: `r1-${u}`, amount: 4 })).toMatchObject({
        applied: false,
      });
      expect(await ledger.refund({ holdKey: `h-${u}`, key: `r2-${u}`, amount: 3 })).toEqual({
        ok: false,
        reason: "exceeds_charge",
      });
      expect(await ledger.account(u)).toEqual({ userId: u, available: 8, held: 0 });
      expect(await ledger.audit()).toEqual([]);
    });

    test("adjustments cannot take the balance below zero", async () => {
      const u = newUser();
      await ledger.grant({ userId: u, amount: 3, key: `g-${u}` });
      expect(await ledger.adjust({ userId: u, amount: -5, key: `a-${u}` })).toEqual({
        ok: false,
        reason: "insufficient",
        available: 3,
        missing: 2,
      });
      expect(await ledger.adjust({ userId: u, amount: -2, key: `a2-${u}` })).toEqual({
        ok: true,
        applied: true,
      });
      expect(await ledger.account(u)).toEqual({ userId: u, available: 1, held: 0 });
      expect(await ledger.audit()).toEqual([]);
    });

    test("bad input is refused before anything is written", async () => {
      const u = newUser();
      await expect(ledger.grant({ userId: u, amount: -1, key: "x" })).rejects.toThrow();
      await expect(ledger.hold({ userId: u, amount: 1.5, key: "x" })).rejects.toThrow();
      await expect(ledger.grant({ userId: u, amount: 1, key: "" })).rejects.toThrow();
      expect(await ledger.account(u)).toEqual({ userId: u, available: 0, held: 0 });
    });

    test("the CHECK constraint refuses a negative balance even if code were wrong", async () => {
      const u = newUser();
      await ledger.grant({ userId: u, amount: 1, key: `g-${u}` });
      const { creditAccounts } = await import("../../../src/platform/db/schema");
      const { eq, sql } = await import("drizzle-orm");
      await expect(
        database.db
          .update(creditAccounts)
          .set({ available: sql`${creditAccounts.available} - 2` })
          .where(eq(creditAccounts.userId, u)),
      ).rejects.toThrow();
    });

    test(`${opts.concurrency} concurrent holds of 1 credit against 100: exactly 100 succeed`, async () => {
      const u = newUser();
      await ledger.grant({ userId: u, amount: 100, key: `g-${u}` });
      const results = await Promise.all(
        Array.from({ length: opts.concurrency }, (_, i) =>
          ledger.hold({ userId: u, amount: 1, key: `c-${u}-${i}` }),
        ),
      );
      expect(results.filter((r) => r.ok).length).toBe(100);
      expect(results.filter((r) => !r.ok).length).toBe(opts.concurrency - 100);
      expect(await ledger.account(u)).toEqual({ userId: u, available: 0, held: 100 });
      expect(await ledger.audit()).toEqual([]);
    });

    test("charge and release of the same hold racing: exactly one wins", async () => {
      const u = newUser();
      await ledger.grant({ userId: u, amount: 1000, key: `g-${u}` });
      for (let round = 0; round < 20; round++) {
        const k = `race-${u}-${round}`;
        await ledger.hold({ userId: u, amount: 10, key: k });
        const attempts = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            i % 2 === 0 ? ledger.charge({ key: k }) : ledger.release({ key: k }),
          ),
        );
        const winners = attempts.filter((r) => r.ok && r.applied);
        expect(winners).toHaveLength(1);
      }
      expect(await ledger.audit()).toEqual([]);
      const acct = await ledger.account(u);
      expect(acct.held).toBe(0);
      expect((1000 - acct.available) % 10).toBe(0);
    });

    test("an audit running while holds are taken and charged sees one consistent ledger", async () => {
      const u = newUser();
      await ledger.grant({ userId: u, amount: 10_000, key: `g-${u}` });
      let busy = true;
      const work = (async () => {
        for (let i = 0; i < 150; i++) {
          await ledger.hold({ userId: u, amount: 3, key: `au-${u}-${i}` });
          await (i % 3 === 0
            ? ledger.release({ key: `au-${u}-${i}` })
            : ledger.charge({ key: `au-${u}-${i}` }));
        }
        busy = false;
      })();
      const seen: unknown[] = [];
      let audits = 0;
      while (busy) {
        seen.push(...(await ledger.audit({ userId: u })));
        audits++;
      }
      await work;
      expect(audits).toBeGreaterThan(5);
      expect(seen).toEqual([]);
    });

    test("the same hold key from many callers at once holds once", async () => {
      const u = newUser();
      await ledger.grant({ userId: u, amount: 50, key: `g-${u}` });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => ledger.hold({ userId: u, amount: 5, key: `dup-${u}` })),
      );
      expect(results.every((r) => r.ok)).toBe(true);
      expect(results.filter((r) => r.ok && r.applied)).toHaveLength(1);
      expect(await ledger.account(u)).toEqual({ userId: u, available: 45, held: 5 });
    });

    test("random sequences with duplicated keys and interleavings keep the audit clean", async () => {
      type Op =
        | { t: "grant"; amount: number; k: number }
        | { t: "hold"; amount: number; k: number }
        | { t: "charge"; k: number; part: number }
        | { t: "release"; k: number }
        | { t: "refund"; k: number; rk: number; amount: number };
      const op: fc.Arbitrary<Op> = fc.oneof(
        fc.record({
          t: fc.constant("grant" as const),
          amount: fc.integer({ min: 1, max: 20 }),
          k: fc.nat(5),
        }),
        fc.record({ t: fc.constant("hold" as const), amount: fc.integer({ min: 1, max: 15 }), k: fc.nat(6) }),
        fc.record({
          t: fc.constant("charge" as const),
          k: fc.nat(6),
          part: fc.integer({ min: 0, max: 100 }),
        }),
        fc.record({ t: fc.constant("release" as const), k: fc.nat(6) }),
        fc.record({
          t: fc.constant("refund" as const),
          k: fc.nat(6),
          rk: fc.nat(3),
          amount: fc.integer({ min: 1, max: 5 }),
        }),
      );
      // operations inside a batch run concurrently; batches run one after another
      const runs = opts.runs;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
          async (batches) => {
            const u = newUser();
            const holdAmounts = new Map<number, number>();
            const apply = async (o: Op) => {
              switch (o.t) {
                case "grant":
                  return ledger.grant({ userId: u, amount: o.amount, key: `g${o.k}` + `-${u}` });
                case "hold": {
                  // one amount per key, as callers derive both from the same generation
                  const amount = holdAmounts.get(o.k) ?? o.amount;
                  holdAmounts.set(o.k, amount);
                  return ledger.hold({ userId: u, amount, key: `h${o.k}-${u}` });
                }
                case "charge": {
                  const amount = holdAmounts.get(o.k);
                  return ledger.charge({
                    key: `h${o.k}-${u}`,
                    amount: amount === undefined ? undefined : Math.floor((amount * o.part) / 100),
                  });
                }
                case "release":
                  return ledger.release({ key: `h${o.k}-${u}` });
                case "refund":
                  return ledger.refund({
                    holdKey: `h${o.k}-${u}`,
                    key: `r${o.rk}-${o.k}-${u}`,
                    amount: o.amount,
                  });
              }
            };
            for (const batch of batches) await Promise.all(batch.map(apply));
            expect(await ledger.audit({ userId: u })).toEqual([]);
            const acct = await ledger.account(u);
            expect(acct.available).toBeGreaterThanOrEqual(0);
            expect(acct.held).toBeGreaterThanOrEqual(0);
          },
        ),
        { numRuns: runs },
      );
      expect(await ledger.audit()).toEqual([]);
      // thousands of runs against a database: on a loaded machine this takes minutes, not seconds
    }, 240_000);
  });
}
