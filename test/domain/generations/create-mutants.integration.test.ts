import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLedger, type Ledger } from "../../../src/domain/credits/ledger";
import type { GenerationsOptions } from "../../../src/domain/generations/context";
import type { LifecycleEvent } from "../../../src/domain/generations/lifecycle";
import { createGenerations } from "../../../src/domain/generations/service";
import type { CreateInput, GenerationQueues } from "../../../src/domain/generations/types";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { users } from "../../../src/platform/db/schema";
import { systemClock } from "../../../src/platform/lib/clock";
import { createTestDatabase, type TestDatabase } from "../../support/db";

/**
 * The first arrow (→ queued) beyond what service.test.ts pins, written against
 * the mutants Stryker left alive (docs/mutation-report.md): where the answer
 * goes, when submit is enqueued, what the operator is told.
 */
const table = loadPriceTable();
const prices = createPrices(table);
const imagePrice = prices.image("nano-core-2", undefined, 1);
if (!imagePrice.ok) throw new Error("default price table has no nano-core-2");
const unit = imagePrice.credits;

describe("creating a generation", () => {
  let database: TestDatabase;
  let ledger: Ledger;
  let enqueued: string[] = [];
  let events: LifecycleEvent[] = [];
  const warnings: { msg: string; generationId?: string; err?: { message?: string } }[] = [];
  let nextUser = 30_000;
  const queues: GenerationQueues = {
    submit: async (id) => void enqueued.push(id),
    sync: async () => undefined,
    deliver: async () => undefined,
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    ledger = createLedger(database.db);
  });
  afterAll(async () => database?.drop());

  const open = (over: Partial<GenerationsOptions> = {}) =>
    createGenerations({
      db: database.db,
      credits: ledger,
      prices,
      queues,
      clock: systemClock,
      logger: pino({ level: "silent" }),
      observe: (e) => void events.push(e),
      ...over,
    });
  async function funded() {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount: 100, key: `g${u}` });
    enqueued = [];
    events = [];
    return u;
  }
  const request = (u: number, over: Partial<CreateInput> = {}): CreateInput => ({
    key: `k${u}`,
    userId: u,
    language: "en",
    chat: { chatId: u },
    params: { operation: "image", prompt: "a fox", model: "nano-core-2", imageSize: "1:1", numImages: 1 },
    ...over,
  });

  test("the answer's place is kept: thread, reply, status message, inline message, status shown", async () => {
    const u = await funded();
    const r = await open().create(
      request(u, {
        chat: { chatId: -100, threadId: 7, replyToMessageId: 8, statusMessageId: 9, inlineMessageId: "inl" },
        statusShown: "Queued",
      }),
    );
    expect(r).toMatchObject({
      ok: true,
      created: true,
      generation: {
        chatId: -100,
        threadId: 7,
        replyToMessageId: 8,
        statusMessageId: 9,
        inlineMessageId: "inl",
        statusShown: "Queued",
        state: "queued",
        price: unit,
      },
    });
  });

  test("created is told once, for the one that was created; a repeat or a refusal tells nothing", async () => {
    const u = await funded();
    const generations = open();
    const first = await generations.create(request(u));
    const again = await generations.create(request(u));
    expect(again).toMatchObject({ ok: true, created: false });
    expect(events).toEqual([{ step: "created", g: first.ok ? first.generation : null }]);
    expect(enqueued).toEqual([first.ok ? first.generation.id : "none"]);
    events = [];
    const poor = nextUser++;
    expect(await generations.create(request(poor))).toMatchObject({ ok: false, reason: "insufficient" });
    expect(events).toEqual([]);
  });

  test("deferSubmit leaves the submit to the caller", async () => {
    const u = await funded();
    const generations = open();
    const r = await generations.create(request(u, { deferSubmit: true }));
    expect(r).toMatchObject({ ok: true, created: true });
    expect(enqueued).toEqual([]);
    const id = r.ok ? r.generation.id : "none";
    await generations.enqueueSubmit(id);
    expect(enqueued).toEqual([id]);
  });

  test("a queue that is down does not fail the request: it is created and held, the reconciler enqueues it", async () => {
    const u = await funded();
    const r = await open({
      queues: { ...queues, submit: async () => Promise.reject(new Error("redis down")) },
      logger: pino({ level: "warn" }, { write: (line: string) => void warnings.push(JSON.parse(line)) }),
    }).create(request(u));
    expect(r).toMatchObject({ ok: true, created: true });
    // the operator's log line says which generation and why
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: "could not enqueue submit",
        generationId: r.ok ? r.generation.id : "none",
        err: expect.objectContaining({ message: "redis down" }),
      }),
    ]);
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100 - unit, held: unit });
  });

  test("a model without a price creates nothing", async () => {
    const u = await funded();
    const noImages = createPrices({ ...table, image: {} });
    const r = await open({ prices: noImages }).create(request(u));
    expect(r).toEqual({ ok: false, reason: "no_price" });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
  });

  test("a banned user's request is refused: nothing created, nothing held, nothing told; lifting the ban lets it through", async () => {
    const u = await funded();
    await database.db.insert(users).values({ id: u, bannedAt: new Date() });
    const generations = open();
    expect(await generations.create(request(u))).toEqual({ ok: false, reason: "banned" });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
    expect(await generations.recent(u, 10)).toEqual([]);
    expect({ enqueued, events }).toEqual({ enqueued: [], events: [] });
    await database.db.update(users).set({ bannedAt: null }).where(eq(users.id, u));
    expect(await generations.create(request(u))).toMatchObject({ ok: true, created: true });
  });

  test("invalid params say what is wrong", async () => {
    const u = await funded();
    const r = await open().create(
      request(u, {
        params: {
          operation: "image",
          prompt: "a fox",
          model: "nano-core-2",
          imageSize: "1:1",
          numImages: 99,
        },
      }),
    );
    expect(r).toMatchObject({ ok: false, reason: "invalid" });
    expect(r.ok === false && r.reason === "invalid" && r.message).toMatch(/\S/);
    expect(r.ok === false && r.reason === "invalid" && r.message).not.toBe("invalid");
  });

  test("an error while holding is thrown and nothing is created", async () => {
    const u = await funded();
    const broken = {
      ...ledger,
      hold: async () => Promise.reject(new Error("ledger down")),
    } as unknown as Ledger;
    const generations = open({ credits: broken });
    await expect(generations.create(request(u))).rejects.toThrow("ledger down");
    expect(await generations.recent(u)).toEqual([]);
    expect(enqueued).toEqual([]);
  });
});
