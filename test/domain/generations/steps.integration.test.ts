import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type Simulator, startSimulator } from "../../../sandbox/simulator/server";
import { createLedger, type Ledger } from "../../../src/domain/credits/ledger";
import { createGenerations, type Generations } from "../../../src/domain/generations/service";
import {
  giveUpSubmit,
  type SubmitDeps,
  submitGeneration,
} from "../../../src/domain/generations/submit/submit-step";
import { type SyncDeps, syncGeneration } from "../../../src/domain/generations/sync/sync-step";
import type { Generation } from "../../../src/domain/generations/types";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { generations as generationsTable, orphanTasks } from "../../../src/platform/db/schema";
import { scaledClock } from "../../../src/platform/lib/clock";
import { createMediaClient } from "../../../src/platform/media-service/client";
import { signGid } from "../../../src/platform/storage/signed-tokens";
import { TelegramFileRefused } from "../../../src/platform/telegram/telegram-files";
import { createTestDatabase, type TestDatabase } from "../../support/db";

/**
 * The submit and sync steps against the real simulator over HTTP and real
 * Postgres, with the queues replaced by a record of what would be enqueued.
 */
const clock = scaledClock(1000);
const logger = pino({ level: "silent" });
const prices = createPrices(loadPriceTable());
const secret = "test-signing-secret-0123456789abcdef";

describe("submit and sync steps", () => {
  let database: TestDatabase;
  let ledger: Ledger;
  let generations: Generations;
  let sim: Simulator;
  let enqueued: string[];
  let submitDeps: SubmitDeps;
  let syncDeps: SyncDeps;
  let alerts: string[];
  let nextUser = 7000;

  beforeAll(async () => {
    database = await createTestDatabase();
    ledger = createLedger(database.db);
    sim = await startSimulator({ apiKey: "k-test", clock, latencyMs: { image: 30_000, video: 60_000 } });
    const media = createMediaClient({ baseUrl: sim.url, apiKey: "k-test", retryBaseMs: 5, maxRetries: 2 });
    const queues = {
      submit: async (id: string) => void enqueued.push(`submit:${id}`),
      sync: async (id: string) => void enqueued.push(`sync:${id}`),
      deliver: async (id: string) => void enqueued.push(`deliver:${id}`),
    };
    generations = createGenerations({ db: database.db, credits: ledger, prices, queues, clock, logger });
    submitDeps = {
      generations,
      media,
      clock,
      logger,
      metadataFor: (g: Generation) => ({ gid: g.id, sig: signGid(secret, g.id), user: String(g.userId) }),
      inputUrl: async (_g, ref) => (ref.kind === "url" ? ref.url : "https://unused.invalid/"),
      limits: { adoptionGraceMs: 60_000, maxSubmissions: 3, partsAtOnce: 3 },
      firstPollDelayMs: () => 3000,
      queues,
      alertOperator: async (p) => void alerts.push(p),
    };
    syncDeps = {
      generations,
      media,
      clock,
      logger,
      maxPollIntervalMs: 60_000,
      queues,
    };
  });
  afterAll(async () => {
    await sim?.close();
    await database?.drop();
  });
  beforeEach(() => {
    enqueued = [];
    alerts = [];
    sim.faults.clear();
  });

  async function moveDeadline(id: string, at: number) {
    await database.db
      .update(generationsTable)
      .set({ deadlineAt: new Date(at) })
      .where(eq(generationsTable.id, id));
  }

  /** a new user granted `amount` credits, and their request for `params` */
  async function newGeneration(params: Parameters<Generations["create"]>[0]["params"], amount: number) {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount, key: `g${u}` });
    const r = await generations.create({
      key: `k${u}`,
      userId: u,
      language: "en",
      chat: { chatId: u },
      params,
    });
    if (!r.ok) throw new Error(`not created: ${r.reason}`);
    return { u, id: r.generation.id, price: r.generation.price };
  }

  function newImage(numImages = 1) {
    return newGeneration(
      { operation: "image", prompt: "a fox", model: "nano-pro", imageSize: "16:9", numImages },
      100,
    );
  }

  async function syncUntilDone(id: string) {
    for (let polls = 0; polls < 200; polls++) {
      const outcome = await syncGeneration(id, polls, syncDeps);
      if (outcome.kind !== "poll-again") return outcome;
      await clock.sleep(1000);
    }
    throw new Error("never finished");
  }

  test("a request goes to the service with our gid, is polled to completion and charged once", async () => {
    const { u, id, price } = await newImage();
    expect(await submitGeneration(id, submitDeps, 1000)).toMatchObject({ kind: "accepted" });
    const g = await generations.get(id);
    expect(g?.state).toBe("pending");
    const task = sim.task(g!.taskId!);
    expect(task?.metadata).toEqual({ gid: id, sig: signGid(secret, id), user: String(u) });
    expect(await syncUntilDone(id)).toEqual({ kind: "completed", late: false });
    expect(enqueued).toContain(`deliver:${id}`);
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100 - price, held: 0 });
    // a second sync (a duplicate webhook) changes nothing
    expect(await syncGeneration(id, 0, syncDeps)).toEqual({ kind: "nothing-to-do" });
    expect(await ledger.audit()).toEqual([]);
  });

  test("a 500 then 200 on create makes exactly one task, with the same Idempotency-Key", async () => {
    const { id } = await newImage();
    sim.faults.nextCreate({ status: 500, times: 1 });
    expect(await submitGeneration(id, submitDeps, 1000)).toMatchObject({ kind: "accepted" });
    expect(sim.tasks().filter((t) => t.metadata?.gid === id)).toHaveLength(1);
    const keys = sim.requests
      .filter((r) => r.method === "POST")
      .slice(-2)
      .map((r) => r.headers["idempotency-key"]);
    expect(keys).toEqual([id, id]);
  });

  test("a photo to edit that Telegram no longer gives ends the request, released, without a send or a retry", async () => {
    const { u, id } = await newGeneration(
      {
        operation: "edit",
        prompt: "make it blue",
        model: "nano-core-2",
        imageSize: "1:1",
        numImages: 1,
        images: [{ kind: "telegram", fileId: "gone-photo" }],
      },
      500,
    );
    const posts = sim.requests.filter((q) => q.method === "POST").length;
    // keeping the photo in a bucket reads it from Telegram first, which answers it is gone
    const gone = {
      ...submitDeps,
      inputUrl: async () => {
        throw new TelegramFileRefused("gone");
      },
    };
    expect(await submitGeneration(id, gone, 1000)).toEqual({ kind: "rejected" });
    expect(sim.requests.filter((q) => q.method === "POST").length).toBe(posts);
    expect(await generations.get(id)).toMatchObject({
      state: "failed",
      error: { reason: "source_unreachable", failure: "telegram" },
    });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 500, held: 0 });
    expect(enqueued).toContain(`deliver:${id}`);
  });

  test("a rejected request (400) releases the hold and is never retried", async () => {
    // 2 s is outside video-a-v3-turbo's 3–15 s: our own check refuses it before the service would
    const { u, id } = await newGeneration(
      {
        operation: "video",
        prompt: "x",
        model: "video-a-v3-turbo",
        duration: 2,
        resolution: "720p",
        aspectRatio: "9:16",
      },
      500,
    );
    const posts = sim.requests.filter((q) => q.method === "POST").length;
    expect(await submitGeneration(id, submitDeps, 1000)).toEqual({ kind: "rejected" });
    expect(sim.requests.filter((q) => q.method === "POST").length).toBe(posts);
    expect((await generations.get(id))?.state).toBe("rejected");
    expect(await ledger.account(u)).toEqual({ userId: u, available: 500, held: 0 });
  });

  test("a 400 from the service itself rejects and releases", async () => {
    const { u, id } = await newImage();
    sim.faults.nextCreate({ status: 400, code: "invalid_request" });
    expect(await submitGeneration(id, submitDeps, 1000)).toEqual({ kind: "rejected" });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
    expect(enqueued).toEqual([`submit:${id}`, `deliver:${id}`]);
  });

  test("401 from the service pauses submitting, alerts the operator and keeps the request queued", async () => {
    const { u, id, price } = await newImage();
    sim.faults.nextCreate({ status: 401, times: 1 });
    expect(await submitGeneration(id, submitDeps, 5000)).toEqual({ kind: "pause", delayMs: 5000 });
    expect(alerts).toHaveLength(1);
    expect((await generations.get(id))?.state).toBe("queued");
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100 - price, held: price });
    expect(await submitGeneration(id, submitDeps, 5000)).toMatchObject({ kind: "accepted" });
  });

  test("fewer images than asked: charged for what came", async () => {
    const { u, id } = await newImage(4);
    sim.faults.nextTask({ imagesReturned: 2 });
    await submitGeneration(id, submitDeps, 1000);
    expect(await syncUntilDone(id)).toEqual({ kind: "completed", late: false });
    const unit = prices.image("nano-pro", undefined, 1);
    if (!unit.ok) throw new Error("no price");
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100 - unit.credits * 2, held: 0 });
    expect((await generations.get(id))?.outputs).toHaveLength(2);
  });

  test("the service fails the task: released, user to be told", async () => {
    const { u, id } = await newImage();
    sim.faults.nextTask({ fail: true });
    await submitGeneration(id, submitDeps, 1000);
    expect(await syncUntilDone(id)).toEqual({ kind: "failed" });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
    expect(enqueued).toContain(`deliver:${id}`);
  });

  test("an intermediate 'processing' status keeps polling", async () => {
    const { id } = await newImage();
    // 30 s of processing is 30 real ms: under load the first poll came after the end. Five more
    // minutes (0.3 real s) keep the task running when we first look.
    sim.faults.nextTask({ processingStatus: true, extraLatencyMs: 300_000 });
    await submitGeneration(id, submitDeps, 1000);
    expect(await syncGeneration(id, 0, syncDeps)).toMatchObject({ kind: "poll-again" });
    await clock.sleep(330_000);
    expect(await syncUntilDone(id)).toEqual({ kind: "completed", late: false });
  });

  test("polling backs off by half each time from the document's 3 s, up to the longest wait", async () => {
    const { id } = await newImage();
    sim.faults.nextTask({ extraLatencyMs: 3_600_000 });
    await submitGeneration(id, submitDeps, 1000);
    // on this 1000× clock the 10-minute deadline is 0.6 real s: a loaded machine would reach it
    await moveDeadline(id, clock.now() + 24 * 3_600_000);
    const delays: number[] = [];
    for (const polls of [0, 1, 2, 3, 20]) {
      const outcome = await syncGeneration(id, polls, syncDeps);
      delays.push(outcome.kind === "poll-again" ? outcome.delayMs : -1);
    }
    expect(delays).toEqual([3000, 4500, 6750, 10125, 60_000]);
  });

  test("when the queue's last attempt fails too, the generation gives up: credits back, user told", async () => {
    const { u, id } = await newImage();
    sim.faults.nextCreate({ status: 503, times: 10 });
    expect(await submitGeneration(id, submitDeps, 1000, { final: true })).toEqual({ kind: "gave-up" });
    expect((await generations.get(id))?.state).toBe("failed");
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
    expect(enqueued).toContain(`deliver:${id}`);
  });

  test("a failed send before the queue's last attempt is retried, not given up", async () => {
    const { u, id } = await newImage();
    sim.faults.nextCreate({ status: 503, times: 10 });
    expect(await submitGeneration(id, submitDeps, 1000, { final: false })).toMatchObject({ kind: "retry" });
    expect((await generations.get(id))?.state).toBe("queued");
    expect((await ledger.account(u)).held).toBeGreaterThan(0);
  });

  test("found in submitting after a crash: waits for adoption, then adopts the task a webhook names", async () => {
    const { u, id } = await newImage();
    // the create reached the service, but the worker died before storing the task id
    expect(await generations.startSubmit(id)).not.toBeNull();
    const registered = await submitDeps.media.createImage(
      {
        prompt: "a fox",
        model: "nano-pro",
        image_size: "16:9",
        num_images: 1,
        metadata: submitDeps.metadataFor((await generations.get(id))!),
      },
      { idempotencyKey: id },
    );
    // ten minutes of grace is 0.6 real s: a loaded machine cannot outrun it between the two calls
    const outcome = await submitGeneration(
      id,
      { ...submitDeps, limits: { ...submitDeps.limits, adoptionGraceMs: 600_000 } },
      1000,
    );
    expect(outcome.kind).toBe("wait-for-adoption");
    await clock.sleep(60_000);
    expect(await syncUntilDoneAdopting(id, registered.id)).toEqual({ kind: "completed", late: false });
    expect((await generations.get(id))?.taskId).toBe(registered.id);
    const price = (await generations.get(id))!.price;
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100 - price, held: 0 });
  });

  async function syncUntilDoneAdopting(id: string, taskId: string) {
    const first = await syncGeneration(id, 0, syncDeps, taskId);
    return first.kind === "poll-again" ? syncUntilDone(id) : first;
  }

  test("a webhook naming a task that lacks our gid adopts nothing", async () => {
    const { id } = await newImage();
    await generations.startSubmit(id);
    const stranger = await submitDeps.media.createImage(
      { prompt: "other", metadata: { gid: "someone-else" } },
      { idempotencyKey: `x-${id}` },
    );
    expect(await syncGeneration(id, 0, syncDeps, stranger.id)).toEqual({ kind: "nothing-to-do" });
    expect((await generations.get(id))?.state).toBe("submitting");
  });

  test("a task still running past its deadline expires, and its late result is delivered free", async () => {
    const { u, id } = await newImage();
    sim.faults.nextTask({ extraLatencyMs: 15 * 60_000 });
    await submitGeneration(id, submitDeps, 1000);
    // jump past the 10-minute image deadline by moving it into the past
    await moveDeadline(id, clock.now() - 1);
    expect(await syncGeneration(id, 0, syncDeps)).toEqual({ kind: "expired" });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
    await clock.sleep(16 * 60_000);
    expect(await syncGeneration(id, 0, syncDeps)).toEqual({ kind: "completed", late: true });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
    expect(await ledger.audit()).toEqual([]);
  });

  test("a create that times out may have reached the service: no second send until the grace period passes", async () => {
    const { u, id, price } = await newImage();
    const impatient = createMediaClient({
      baseUrl: sim.url,
      apiKey: "k-test",
      timeoutMs: 150,
      maxRetries: 0,
    });
    // 50 minutes of clock (3 s real: room for a loaded machine) for a webhook to adopt the task
    const patient = { ...submitDeps, limits: { ...submitDeps.limits, adoptionGraceMs: 3_000_000 } };
    sim.faults.nextCreate({ delayMs: 1_000_000 }); // 1 s real: the client gives up first
    const posts = () => sim.requests.filter((r) => r.method === "POST").length;
    const first = await submitGeneration(id, { ...patient, media: impatient }, 1000);
    expect(first).toEqual({ kind: "wait-for-adoption", delayMs: 3_000_000 });
    expect((await generations.get(id))?.state).toBe("submitting");
    // within the grace period nothing is sent again
    const sent = posts();
    expect((await submitGeneration(id, patient, 1000)).kind).toBe("wait-for-adoption");
    expect(posts()).toBe(sent);
    await clock.sleep(3_010_000);
    // after it, the same Idempotency-Key is sent once more: the service answers with the task it already has
    expect(await submitGeneration(id, patient, 1000)).toMatchObject({ kind: "accepted" });
    // this generation's tasks: a task another test left in flight may land meanwhile
    expect(sim.tasks().filter((t) => t.metadata?.gid === id)).toHaveLength(1);
    expect(await syncUntilDone(id)).toEqual({ kind: "completed", late: false });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100 - price, held: 0 });
  });

  test("a 409 on create is treated as 'the task may exist', not as the user's mistake", async () => {
    const { u, id, price } = await newImage();
    sim.faults.nextCreate({ status: 409, code: "idempotency_key_in_use" });
    expect((await submitGeneration(id, submitDeps, 1000)).kind).toBe("wait-for-adoption");
    expect((await generations.get(id))?.state).toBe("submitting");
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100 - price, held: price });
  });

  test("a 404 on create (wrong MEDIA_API_URL) pauses submitting and alerts the operator", async () => {
    const { id } = await newImage();
    sim.faults.nextCreate({ status: 404 });
    expect(await submitGeneration(id, submitDeps, 5000)).toEqual({ kind: "pause", delayMs: 5000 });
    expect(alerts.join()).toContain("MEDIA_API_URL");
    expect((await generations.get(id))?.state).toBe("queued");
  });

  test("after the last allowed send with no answer, the credits go back and the user is told", async () => {
    const { u, id } = await newImage();
    const impatient = createMediaClient({
      baseUrl: sim.url,
      apiKey: "k-test",
      timeoutMs: 100,
      maxRetries: 0,
    });
    const deps = { ...submitDeps, media: impatient };
    for (let i = 0; i < 3; i++) {
      sim.faults.nextCreate({ delayMs: 1_000_000 });
      expect((await submitGeneration(id, deps, 1000)).kind).toBe("wait-for-adoption");
      await clock.sleep(61_000);
    }
    expect(await submitGeneration(id, deps, 1000)).toEqual({ kind: "gave-up" });
    expect((await generations.get(id))?.state).toBe("failed");
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
    expect(enqueued).toContain(`deliver:${id}`);
  });

  test("giving up on submitting never fails a generation the service already accepted", async () => {
    const { id } = await newImage();
    await submitGeneration(id, submitDeps, 1000);
    expect((await generations.get(id))?.state).toBe("pending");
    await giveUpSubmit(id, submitDeps, new Error("redis went away"));
    expect((await generations.get(id))?.state).toBe("pending");
  });

  test("a task of ours for a generation that can no longer take it is recorded as an orphan, with its cost", async () => {
    const { u, id } = await newImage();
    expect(await generations.cancel(id, u)).not.toBeNull();
    const g = (await generations.get(id))!;
    const stray = await submitDeps.media.createImage(
      { prompt: "a fox", model: "nano-pro", image_size: "16:9", metadata: submitDeps.metadataFor(g) },
      { idempotencyKey: `stray-${id}` },
    );
    expect(await syncGeneration(id, 0, syncDeps, stray.id)).toEqual({ kind: "nothing-to-do" });
    const [orphan] = await database.db.select().from(orphanTasks).where(eq(orphanTasks.taskId, stray.id));
    expect(orphan).toMatchObject({ generationId: id, reason: "task for a generation cancelled" });
    expect(orphan?.serviceCredits).toBeGreaterThan(0);
  });

  test("a queued generation whose earlier send registered after all is adopted, not sent again", async () => {
    const { id } = await newImage();
    const g = (await generations.get(id))!;
    const registered = await submitDeps.media.createImage(
      {
        prompt: "a fox",
        model: "nano-pro",
        image_size: "16:9",
        num_images: 1,
        metadata: submitDeps.metadataFor(g),
      },
      { idempotencyKey: id },
    );
    expect((await syncGeneration(id, 0, syncDeps, registered.id)).kind).not.toBe("nothing-to-do");
    expect((await generations.get(id))?.taskId).toBe(registered.id);
    expect(await submitGeneration(id, submitDeps, 1000)).toEqual({ kind: "nothing-to-do" });
  });
});
