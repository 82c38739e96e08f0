import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { promoGrantKey } from "../../../src/domain/credits/entry-keys";
import { createLedger, type Ledger } from "../../../src/domain/credits/ledger";
import { createUsers, type Users } from "../../../src/domain/users/users";
import { createPromoCodes, type PromoCodes } from "../../../src/features/promo/store";
import { ledgerEntries, promoCodes } from "../../../src/platform/db/schema";
import { createTestDatabase, type TestDatabase } from "../../support/db";

/** Promo codes on real Postgres: redemptions racing from many connections. */
describe("promo codes on real Postgres", () => {
  let database: TestDatabase;
  let ledger: Ledger;
  let users: Users;
  let codes: PromoCodes;
  let nextUser = 8_800_000;

  beforeAll(async () => {
    database = await createTestDatabase({ max: 20 });
    ledger = createLedger(database.db);
    users = createUsers(database.db, ledger, { welcomeCredits: 0 });
    codes = createPromoCodes({ db: database.db, ledger });
  });
  afterAll(async () => database?.drop());

  async function newUsers(n: number): Promise<number[]> {
    const ids = Array.from({ length: n }, () => nextUser++);
    for (const id of ids) await users.touch({ id, first_name: `U${id}`, username: `user_${id}` });
    return ids;
  }
  const grantsOf = (code: string) =>
    database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, "grant"), like(ledgerEntries.key, `promo:${code}:%`)));

  test("50 users racing for 10 uses: exactly 10 grants, each user at most once, and the ledger sound", async () => {
    const ids = await newUsers(50);
    expect(await codes.create({ code: "RACE10", credits: 25, maxUses: 10, newUsersOnly: false }, 1)).toBe(
      "created",
    );
    // every user twice, all at once: 100 redemptions over 20 connections
    const tries = [...ids, ...ids].map((id) => codes.redeem("RACE10", id).then((r) => ({ id, ...r })));
    const results = await Promise.all(tries);
    const granted = results.filter((r) => r.outcome === "granted");
    expect(granted).toHaveLength(10);
    expect(new Set(granted.map((r) => r.id)).size).toBe(10);
    expect(results.filter((r) => r.outcome !== "granted").map((r) => r.outcome)).toEqual(
      expect.arrayContaining(["used-up"]),
    );
    for (const r of results) expect(["granted", "used-up", "already"]).toContain(r.outcome);
    const entries = await grantsOf("RACE10");
    expect(entries).toHaveLength(10);
    expect(entries.every((e) => e.deltaAvailable === 25)).toBe(true);
    expect(entries.map((e) => e.key).sort()).toEqual(
      granted.map((r) => promoGrantKey("RACE10", r.id)).sort(),
    );
    for (const id of ids) {
      const mine = granted.some((r) => r.id === id);
      expect((await ledger.account(id)).available).toBe(mine ? 25 : 0);
    }
    const [row] = await database.db.select().from(promoCodes).where(eq(promoCodes.code, "RACE10"));
    expect(row?.used).toBe(10);
    expect(await ledger.audit()).toEqual([]);
  });

  test("a user redeems a code once; an ended, an expired or an unknown code grants nothing", async () => {
    const [a, b] = await newUsers(2);
    await codes.create({ code: "ONCE", credits: 5, maxUses: 100, newUsersOnly: false }, 1);
    expect(await codes.redeem("ONCE", a!)).toEqual({ outcome: "granted", credits: 5, available: 5 });
    expect(await codes.redeem("ONCE", a!)).toEqual({ outcome: "already" });
    expect(await codes.end("ONCE")).toBe(true);
    expect(await codes.end("ONCE")).toBe(false);
    expect(await codes.redeem("ONCE", b!)).toEqual({ outcome: "ended" });
    // one who redeemed before the end is told so, not that it ended
    expect(await codes.redeem("ONCE", a!)).toEqual({ outcome: "already" });
    await codes.create({ code: "GONE", credits: 5, maxUses: 100, days: 1, newUsersOnly: false }, 1);
    await database.db
      .update(promoCodes)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(promoCodes.code, "GONE"));
    expect(await codes.redeem("GONE", b!)).toEqual({ outcome: "expired" });
    expect(await codes.redeem("NOSUCH", b!)).toEqual({ outcome: "unknown" });
    expect(await codes.create({ code: "ONCE", credits: 9, maxUses: 1, newUsersOnly: false }, 1)).toBe(
      "taken",
    );
    expect((await ledger.account(b!)).available).toBe(0);
    expect(await ledger.audit()).toEqual([]);
  });

  test("new users only: a user first seen before the code was made is refused, one seen after is granted", async () => {
    const [old] = await newUsers(1);
    await codes.create({ code: "NEWONLY", credits: 7, maxUses: 10, newUsersOnly: true }, 1);
    const [fresh] = await newUsers(1);
    expect(await codes.redeem("NEWONLY", old!)).toEqual({ outcome: "not-new" });
    expect(await codes.redeem("NEWONLY", fresh!)).toMatchObject({ outcome: "granted", credits: 7 });
    expect(await codes.redeem("NEWONLY", 9_999_999)).toEqual({ outcome: "not-new" });
  });
});
