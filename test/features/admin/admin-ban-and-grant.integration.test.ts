import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Ledger } from "../../../src/domain/credits/ledger";
import type { Generations } from "../../../src/domain/generations/service";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { createUsers, type Users } from "../../../src/domain/users/users";
import { grantStore } from "../../../src/features/admin/grant-store";
import { ledgerEntries } from "../../../src/platform/db/schema";
import { createTestDatabase, type TestDatabase } from "../../support/db";
import { testGenerations } from "../../support/test-generations";

/**
 * What the admin commands rely on below the bot, on real Postgres: a ban
 * refused inside generations.create's transaction, the admin cancellation of
 * queued work, and a /grant confirmed from two connections at once.
 */
describe("bans and grants on real Postgres", () => {
  let database: TestDatabase;
  let ledger: Ledger;
  let generations: Generations;
  let users: Users;
  let nextUser = 7_700_000;

  beforeAll(async () => {
    database = await createTestDatabase({ max: 20 });
    ({ ledger, generations } = testGenerations(database.db));
    users = createUsers(database.db, ledger, { welcomeCredits: 0 });
  });
  afterAll(async () => database?.drop());

  async function newUser(credits = 100) {
    const id = nextUser++;
    await users.touch({ id, first_name: `U${id}`, username: `user_${id}` });
    await ledger.grant({ userId: id, amount: credits, key: `seed-${id}` });
    return id;
  }
  const request = (userId: number, key: string) => ({
    key,
    userId,
    language: "en",
    chat: { chatId: userId },
    params: {
      operation: "image" as const,
      prompt: "a fox",
      model: "nano-core-2",
      imageSize: "1:1",
      numImages: 1,
    },
  });

  test("create refuses a banned user and holds nothing; after unban it works", async () => {
    const u = await newUser();
    expect(await users.ban(u)).toBe(true);
    expect(await users.ban(u)).toBe(false);
    expect(await generations.create(request(u, `k-${u}-1`))).toEqual({ ok: false, reason: "banned" });
    expect(await generations.recent(u)).toEqual([]);
    expect(await ledger.account(u)).toMatchObject({ available: 100, held: 0 });
    expect(await users.unban(u)).toBe(true);
    expect(await generations.create(request(u, `k-${u}-2`))).toMatchObject({ ok: true, created: true });
    expect(await ledger.audit({ userId: u })).toEqual([]);
  });

  test("a ban racing many creates: each create either lands before the ban (and is cancelled) or is refused", async () => {
    // credits for all 20 at any price: only the ban may refuse one (100 ran out at 6 credits each
    // whenever 17 creates beat the ban)
    const credits = 10_000;
    const u = await newUser(credits);
    const creates = Array.from({ length: 20 }, (_, i) => generations.create(request(u, `race-${u}-${i}`)));
    const ban = (async () => {
      await users.ban(u);
      return generations.cancelQueuedOf(u);
    })();
    const results = await Promise.all(creates);
    await ban;
    // no second pass: a create that read the row before the ban made the ban wait for its commit
    const created = results.filter((r) => r.ok).length;
    const refused = results.filter((r) => !r.ok && r.reason === "banned").length;
    expect(created + refused).toBe(20);
    const rows = await generations.recent(u, 50);
    expect(rows).toHaveLength(created);
    expect(rows.every((g) => g.state === "cancelled")).toBe(true);
    expect(await ledger.account(u)).toMatchObject({ available: credits, held: 0 });
    expect(await ledger.audit({ userId: u })).toEqual([]);
  });

  test("cancelQueuedOf cancels only queued work of that user, each with its release", async () => {
    const u = await newUser();
    const other = await newUser();
    const a = await generations.create(request(u, `q-${u}-a`));
    const b = await generations.create(request(u, `q-${u}-b`));
    const theirs = await generations.create(request(other, `q-${other}`));
    if (!a.ok || !b.ok || !theirs.ok) throw new Error("setup failed");
    // one of them is already with the service: it runs on
    await generations.startSubmit(b.generation.id);
    const cancelled = await generations.cancelQueuedOf(u);
    expect(cancelled.map((g) => g.id)).toEqual([a.generation.id]);
    expect(cancelled[0]?.error).toEqual({ reason: "cancelled_by_admin" });
    expect((await generations.get(b.generation.id))?.state).toBe("submitting");
    expect((await generations.get(theirs.generation.id))?.state).toBe("queued");
    const quote = createPrices(loadPriceTable()).image("nano-core-2", undefined, 1);
    const price = quote.ok ? quote.credits : Number.NaN;
    expect(await ledger.account(u)).toMatchObject({ available: 100 - price, held: price });
    expect(await generations.cancelQueuedOf(u)).toEqual([]);
    expect(await ledger.audit({ userId: u })).toEqual([]);
  });

  test("a grant confirmed from ten connections at once moves the credits once", async () => {
    const u = await newUser();
    const store = grantStore(database.db, ledger);
    await store.propose(42, 1000 + u, { adminId: 1, targetId: u, amount: 25, reason: "race" });
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => store.confirm(42, 1000 + u, 1)));
    expect(outcomes.filter((o) => o.kind === "done")).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === "already")).toHaveLength(9);
    expect(await ledger.account(u)).toMatchObject({ available: 125 });
    // a replayed command proposes again: the done one stays done
    await store.propose(42, 1000 + u, { adminId: 1, targetId: u, amount: 25, reason: "race" });
    expect((await store.confirm(42, 1000 + u, 1)).kind).toBe("already");
    // another admin cannot confirm someone else's grant
    expect((await store.confirm(42, 1000 + u, 2)).kind).toBe("missing");
  });

  test("a negative grant never goes below zero, even with a hold open; racing confirms take once", async () => {
    const u = await newUser(30);
    await ledger.hold({ userId: u, amount: 10, key: `h-${u}` });
    const store = grantStore(database.db, ledger);
    await store.propose(42, 5000 + u, { adminId: 1, targetId: u, amount: -50, reason: "abuse" });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => store.confirm(42, 5000 + u, 1)));
    const done = outcomes.find((o) => o.kind === "done");
    expect(done).toMatchObject({ moved: -20, notTaken: 30, available: 0 });
    expect(await ledger.account(u)).toMatchObject({ available: 0, held: 10 });
    const adjustments = await database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, u), eq(ledgerEntries.kind, "adjustment")));
    expect(adjustments.map((a) => a.deltaAvailable)).toEqual([-20]);
    // the hold still settles normally
    expect(await ledger.release({ key: `h-${u}` })).toMatchObject({ ok: true });
    expect(await ledger.audit({ userId: u })).toEqual([]);
  });

  test("cancel stops a pending grant; a done one stays done", async () => {
    const u = await newUser();
    const store = grantStore(database.db, ledger);
    await store.propose(43, u, { adminId: 1, targetId: u, amount: 5, reason: null });
    expect((await store.cancel(43, u, 1)).kind).toBe("cancelled");
    expect((await store.confirm(43, u, 1)).kind).toBe("cancelled");
    expect(await ledger.account(u)).toMatchObject({ available: 100 });
    expect((await store.confirm(44, u, 1)).kind).toBe("missing");
  });

  test("users are found by username whatever its case and the @", async () => {
    const u = await newUser();
    expect((await users.findByUsername(`@USER_${u}`))?.id).toBe(u);
    expect(await users.findByUsername("nobody_at_all")).toBeUndefined();
    expect(await users.banState(u)).toEqual({ banned: false, language: "en" });
    expect(await users.banState(1)).toBeUndefined();
  });
});
