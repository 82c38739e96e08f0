import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Ledger } from "../../../src/domain/credits/ledger";
import type { Generations } from "../../../src/domain/generations/service";
import type { GenerationQueues } from "../../../src/domain/generations/types";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { createTestDatabase, type TestDatabase } from "../../support/db";
import { testGenerations } from "../../support/test-generations";

const prices = createPrices(loadPriceTable());
const imagePrice = prices.image("nano-core-2", undefined, 1);
if (!imagePrice.ok) throw new Error("default price table has no nano-core-2");
const unit = imagePrice.credits;

describe("generations service on real Postgres", () => {
  let database: TestDatabase;
  let ledger: Ledger;
  let generations: Generations;
  const enqueued: string[] = [];
  const queues: GenerationQueues = {
    submit: async (id) => void enqueued.push(`submit:${id}`),
    sync: async (id) => void enqueued.push(`sync:${id}`),
    deliver: async (id) => void enqueued.push(`deliver:${id}`),
  };
  let nextUser = 5000;

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ ledger, generations } = testGenerations(database.db, {
      prices,
      queues,
    }));
  });
  afterAll(async () => database?.drop());

  const imageRequest = (userId: number, key: string, numImages = 1) => ({
    key,
    userId,
    language: "en",
    chat: { chatId: userId },
    params: {
      operation: "image" as const,
      prompt: "a lighthouse",
      model: "nano-core-2",
      imageSize: "1:1",
      numImages,
    },
  });

  test("create holds the price and enqueues submit; the same key creates nothing more", async () => {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount: 100, key: `g${u}` });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => generations.create(imageRequest(u, `k${u}`))),
    );
    const created = results.filter((r) => r.ok && r.created);
    expect(created).toHaveLength(1);
    expect(new Set(results.map((r) => (r.ok ? r.generation.id : "x"))).size).toBe(1);
    const id = results[0]?.ok ? results[0].generation.id : "none";
    expect(enqueued.filter((e) => e === `submit:${id}`)).toHaveLength(1);
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100 - unit, held: unit });
    expect(await ledger.audit()).toEqual([]);
  });

  test("a video accepted by the service expires 20 minutes later if no result comes", async () => {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount: 500, key: `g${u}` });
    const r = await generations.create({
      key: `k${u}`,
      userId: u,
      language: "en",
      chat: { chatId: u },
      params: {
        operation: "video",
        prompt: "waves",
        model: "video-a-v3-turbo",
        duration: 5,
        resolution: "720p",
        aspectRatio: "9:16",
      },
    });
    if (!r.ok) throw new Error(`not created: ${r.reason}`);
    await generations.startSubmit(r.generation.id);
    const before = Date.now();
    const accepted = await generations.accept(r.generation.id, { taskId: `task-${u}` });
    const after = Date.now();
    const deadline = accepted?.deadlineAt?.getTime() ?? 0;
    expect(deadline).toBeGreaterThanOrEqual(before + 20 * 60_000);
    expect(deadline).toBeLessThanOrEqual(after + 20 * 60_000);
  });

  test("insufficient credits create nothing and say how many are missing", async () => {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount: 1, key: `g${u}` });
    const r = await generations.create(imageRequest(u, `k${u}`));
    expect(r).toEqual({ ok: false, reason: "insufficient", price: unit, available: 1, missing: unit - 1 });
    expect(await generations.recent(u)).toEqual([]);
    expect(await ledger.account(u)).toEqual({ userId: u, available: 1, held: 0 });
  });

  test("a price that changed since the user saw it creates nothing", async () => {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount: 100, key: `g${u}` });
    const r = await generations.create({ ...imageRequest(u, `k${u}`), expectedPrice: unit + 1 });
    expect(r).toEqual({ ok: false, reason: "price_changed", price: unit });
    expect(await generations.recent(u)).toEqual([]);
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
    expect(await generations.create({ ...imageRequest(u, `k${u}`), expectedPrice: unit })).toMatchObject({
      ok: true,
    });
  });

  test("a request made already is found, not refused, when the price it was shown is no longer the price", async () => {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount: 100, key: `g${u}` });
    const made = await generations.create({ ...imageRequest(u, `k${u}`), expectedPrice: unit });
    if (!made.ok) throw new Error("not created");
    // a second tap of the same Confirm, answered with another price (the table changed since)
    const again = await generations.create({ ...imageRequest(u, `k${u}`), expectedPrice: unit + 1 });
    expect(again).toMatchObject({ ok: true, created: false, generation: { id: made.generation.id } });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100 - unit, held: unit });
  });

  test("invalid params are refused before anything is written", async () => {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount: 100, key: `g${u}` });
    const r = await generations.create({
      ...imageRequest(u, `k${u}`),
      params: { operation: "image", prompt: "  ", model: "nano-core-2", imageSize: "1:1", numImages: 1 },
    });
    expect(r).toMatchObject({ ok: false, reason: "invalid" });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
  });

  test("complete/fail/expire racing: nothing held, at most one charge, audit clean", async () => {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount: 100, key: `g${u}` });
    const r = await generations.create(imageRequest(u, `k${u}`, 4));
    if (!r.ok) throw new Error("not created");
    const id = r.generation.id;
    expect(await generations.startSubmit(id)).not.toBeNull();
    expect(await generations.accept(id, { taskId: `task-${u}` })).not.toBeNull();
    const outputs = { images: ["https://x/1.png", "https://x/2.png"], videos: [], audios: [] };
    const outcomes = await Promise.all([
      generations.complete(id, outputs),
      generations.complete(id, outputs),
      generations.fail(id, { reason: "task_failed" }),
      generations.expire(id),
    ]);
    // An expire that commits first may be followed by a free late completion: both are
    // correct. What must hold in every ordering: nothing held, one charge at most, audit clean.
    expect(outcomes.filter((o) => o !== null).length).toBeGreaterThanOrEqual(1);
    const g = await generations.get(id);
    const account = await ledger.account(u);
    expect(account.held).toBe(0);
    expect([0, unit * 2]).toContain(g?.charged ?? 0);
    expect(account.available).toBe(100 - (g?.charged ?? 0));
    if (g?.state === "completed" && !g.late) expect(g.charged).toBe(unit * 2);
    expect(await ledger.audit()).toEqual([]);
  });

  test("a result after local expiry is delivered free: credits stay returned", async () => {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount: 100, key: `g${u}` });
    const r = await generations.create(imageRequest(u, `k${u}`));
    if (!r.ok) throw new Error("not created");
    const id = r.generation.id;
    await generations.startSubmit(id);
    await generations.accept(id, { taskId: `task-${u}` });
    expect(await generations.expire(id)).not.toBeNull();
    const late = await generations.complete(id, { images: ["https://x/1.png"], videos: [], audios: [] });
    expect(late).toMatchObject({ late: true, generation: { state: "completed", charged: 0 } });
    expect(
      await generations.complete(id, { images: ["https://x/1.png"], videos: [], audios: [] }),
    ).toBeNull();
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
    expect(await ledger.audit()).toEqual([]);
  });

  test("cancel releases a queued generation and nothing else", async () => {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount: 100, key: `g${u}` });
    const r = await generations.create(imageRequest(u, `k${u}`));
    if (!r.ok) throw new Error("not created");
    expect(await generations.cancel(r.generation.id, u + 1)).toBeNull();
    expect(await generations.cancel(r.generation.id, u)).toMatchObject({ state: "cancelled" });
    expect(await generations.startSubmit(r.generation.id)).toBeNull();
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
  });

  test("the reconciler's view lists a queued generation and a failed one not yet told, not a cancelled or a told failure", async () => {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount: 100, key: `g${u}` });
    const create = async (key: string) => {
      const r = await generations.create(imageRequest(u, key));
      if (!r.ok) throw new Error("not created");
      return r.generation.id;
    };
    const queued = await create(`k${u}-queued`);
    const cancelled = await create(`k${u}-cancelled`);
    expect(await generations.cancel(cancelled, u)).toMatchObject({ state: "cancelled" });
    const failed = await create(`k${u}-failed`);
    await generations.startSubmit(failed);
    expect(await generations.fail(failed, { reason: "task_failed" })).toMatchObject({ state: "failed" });

    const before = (await generations.unfinished()).map((row) => row.id);
    expect(before).toContain(queued);
    expect(before).toContain(failed);
    expect(before).not.toContain(cancelled);

    expect(await generations.markNotified(failed)).toBe(true);
    const after = (await generations.unfinished()).map((row) => row.id);
    expect(after).toContain(queued);
    expect(after).not.toContain(failed);
    expect(after).not.toContain(cancelled);
  });
});
