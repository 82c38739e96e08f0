import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Ledger } from "../../../src/domain/credits/ledger";
import type { LifecycleEvent } from "../../../src/domain/generations/lifecycle";
import { createGenerations, type Generations } from "../../../src/domain/generations/service";
import { mayStillComplete } from "../../../src/domain/generations/states";
import type { Generation } from "../../../src/domain/generations/types";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import {
  type GenerationState,
  generationStates,
  generations as generationsTable,
  holds,
} from "../../../src/platform/db/schema";
import type { Clock } from "../../../src/platform/lib/clock";
import { createTestDatabase, type TestDatabase } from "../../support/db";
import { testGenerations } from "../../support/test-generations";

/**
 * The state machine's arrows one by one, each tried from every state: a
 * transition moves only along its own arrows, and the money moves with it.
 * Written against the mutants Stryker left alive (docs/mutation-report.md).
 */
const prices = createPrices(loadPriceTable());
const imagePrice = prices.image("nano-core-2", undefined, 1);
if (!imagePrice.ok) throw new Error("default price table has no nano-core-2");
const unit = imagePrice.credits;
const allStates: readonly GenerationState[] = generationStates;
/** a fixed clock: timestamps the arrows write are exact */
let clockNow = Date.parse("2026-01-01T00:00:00Z");
const clock: Clock = { now: () => clockNow, sleep: async () => undefined, toReal: (ms) => ms };

describe("the state machine's arrows, from every state", () => {
  let database: TestDatabase;
  let ledger: Ledger;
  let generations: Generations;
  const events: LifecycleEvent[] = [];
  let nextUser = 9000;

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ ledger, generations } = testGenerations(database.db, {
      prices,
      clock,
      observe: (e) => void events.push(e),
    }));
  });
  afterAll(async () => database?.drop());

  /** a generation of 2 images (held 2 units), put in `state` with its hold as that state has it */
  async function inState(state: GenerationState, extra: Partial<Generation> = {}) {
    const u = nextUser++;
    await ledger.grant({ userId: u, amount: 100, key: `g${u}` });
    const r = await generations.create({
      key: `k${u}`,
      userId: u,
      language: "en",
      chat: { chatId: u },
      params: { operation: "image", prompt: "a fox", model: "nano-core-2", imageSize: "1:1", numImages: 2 },
    });
    if (!r.ok) throw new Error(`not created: ${r.reason}`);
    const g = r.generation;
    // the hold as the state has it: open while running, charged once a result is in, released after an end
    if (["completed", "delivering", "delivered"].includes(state)) {
      await ledger.charge({ key: g.holdKey, amount: unit * 2 });
    } else if (["failed", "rejected", "expired", "cancelled"].includes(state)) {
      await ledger.release({ key: g.holdKey });
    }
    const charged = ["completed", "delivering", "delivered"].includes(state) ? unit * 2 : null;
    await database.db
      .update(generationsTable)
      .set({ state, charged, ...extra })
      .where(eq(generationsTable.id, g.id));
    return { u, id: g.id, holdKey: g.holdKey };
  }
  const stateOf = async (id: string) => (await generations.get(id))?.state;
  const holdOf = async (key: string) => (await database.db.select().from(holds).where(eq(holds.key, key)))[0];

  /** every state is tried; `arrows` maps the states it moves from to where it goes */
  async function onlyArrows(
    arrow: (id: string, u: number) => Promise<unknown>,
    arrows: Partial<Record<GenerationState, GenerationState>>,
  ) {
    for (const from of allStates) {
      const { u, id } = await inState(from);
      const result = await arrow(id, u);
      const to = arrows[from];
      expect({ from, moved: result !== null }).toEqual({ from, moved: to !== undefined });
      expect({ from, state: await stateOf(id) }).toEqual({ from, state: to ?? from });
    }
    expect(await ledger.audit()).toEqual([]);
  }

  const outputs = { images: ["https://x/1.png"], videos: [], audios: [] };
  const anError = { reason: "task_failed" };

  test("startSubmit: queued → submitting only", () =>
    onlyArrows((id) => generations.startSubmit(id), { queued: "submitting" }));
  test("resubmit: submitting → submitting only", () =>
    onlyArrows((id) => generations.resubmit(id), { submitting: "submitting" }));
  test("requeue: submitting → queued only", () =>
    onlyArrows((id) => generations.requeue(id), { submitting: "queued" }));
  test("accept: submitting → pending only", () =>
    onlyArrows((id) => generations.accept(id, { taskId: `t-${id}` }), { submitting: "pending" }));
  test("adopt: submitting or queued → pending; failed or expired keep their state", () =>
    onlyArrows((id) => generations.adopt(id, { taskId: `t-${id}` }), {
      submitting: "pending",
      queued: "pending",
      failed: "failed",
      expired: "expired",
    }));
  test("reject: submitting → rejected only", () =>
    onlyArrows((id) => generations.reject(id, anError), { submitting: "rejected" }));
  test("failSubmit: queued or submitting → failed, never a pending one", () =>
    onlyArrows((id) => generations.failSubmit(id, anError), { queued: "failed", submitting: "failed" }));
  test("fail: queued, submitting or pending → failed", () =>
    onlyArrows((id) => generations.fail(id, anError), {
      queued: "failed",
      submitting: "failed",
      pending: "failed",
    }));
  test("expire: pending → expired only", () =>
    onlyArrows((id) => generations.expire(id), { pending: "expired" }));
  test("cancel: queued → cancelled only", () =>
    onlyArrows((id, u) => generations.cancel(id, u), { queued: "cancelled" }));
  test("complete: pending → completed only (expired comes late, below)", () =>
    onlyArrows((id) => generations.complete(id, outputs), { pending: "completed", expired: "completed" }));
  test("startDelivery: completed or delivering → delivering", () =>
    onlyArrows((id) => generations.startDelivery(id), { completed: "delivering", delivering: "delivering" }));
  test("finishDelivery: delivering → delivered only", () =>
    onlyArrows((id) => generations.finishDelivery(id, [1], ["f"]), { delivering: "delivered" }));
  test("refundUndeliverable: completed or delivering → failed", () =>
    onlyArrows((id) => generations.refundUndeliverable(id, "gone"), {
      completed: "failed",
      delivering: "failed",
    }));

  test("a failed generation completes late only if we gave up for service_unavailable, and once", async () => {
    const theirs = await inState("failed", { error: { reason: "task_failed" } });
    expect(await generations.complete(theirs.id, outputs)).toBeNull();
    expect(await stateOf(theirs.id)).toBe("failed");
    const ours = await inState("failed", { error: { reason: "service_unavailable" } });
    expect(await generations.complete(ours.id, outputs)).toMatchObject({
      late: true,
      generation: { state: "completed", charged: 0, late: true },
    });
    const alreadyLate = await inState("expired", { late: true });
    expect(await generations.complete(alreadyLate.id, outputs)).toBeNull();
    expect(await ledger.account(ours.u)).toEqual({ userId: ours.u, available: 100, held: 0 });
  });

  test("startSubmit and resubmit count attempts and stamp the submission", async () => {
    const { id } = await inState("queued");
    clockNow += 1000;
    const first = await generations.startSubmit(id);
    expect(first).toMatchObject({ attempts: 1, submittedAt: new Date(clockNow) });
    clockNow += 1000;
    const again = await generations.resubmit(id);
    expect(again).toMatchObject({
      attempts: 2,
      submittedAt: new Date(clockNow),
      updatedAt: new Date(clockNow),
    });
  });

  test("accept records the task, the service's cost, the measured length rounded up and the deadline", async () => {
    const { id } = await inState("submitting");
    const g = await generations.accept(id, { taskId: `t-${id}`, serviceCredits: 7, measuredSeconds: 12.2 });
    expect(g).toMatchObject({
      taskId: `t-${id}`,
      serviceCredits: 7,
      measuredSeconds: 13,
      deadlineAt: new Date(clockNow + generations.deadlineOf("image")),
    });
    const plain = await inState("submitting");
    expect(await generations.accept(plain.id, { taskId: `t-${plain.id}` })).toMatchObject({
      serviceCredits: null,
      measuredSeconds: null,
    });
    expect(await generations.accept("00000000-0000-0000-0000-000000000000", { taskId: "none" })).toBeNull();
  });

  test("adopt gives a given-up generation its task id once, and not one that has a task already", async () => {
    const { id } = await inState("expired");
    expect(await generations.adopt(id, { taskId: `t-${id}` })).toMatchObject({
      state: "expired",
      taskId: `t-${id}`,
    });
    expect(await generations.adopt(id, { taskId: `t2-${id}` })).toBeNull();
    expect((await generations.get(id))?.taskId).toBe(`t-${id}`);
    const running = await inState("pending", { taskId: "already" });
    expect(await generations.adopt(running.id, { taskId: "other" })).toBeNull();
    expect((await generations.get(running.id))?.taskId).toBe("already");
  });

  test("an end releases the whole hold, keeps the error and the end time, and tells the operator", async () => {
    for (const [from, end] of [
      ["submitting", (id: string) => generations.reject(id, { reason: "bad_prompt" })],
      ["pending", (id: string) => generations.fail(id, { reason: "bad_prompt" })],
      ["pending", (id: string) => generations.expire(id)],
    ] as const) {
      const { u, id, holdKey } = await inState(from);
      events.length = 0;
      clockNow += 1000;
      const g = await end(id);
      expect(g?.finishedAt).toEqual(new Date(clockNow));
      expect(g?.error?.reason).toBe(g?.state === "expired" ? "deadline" : "bad_prompt");
      expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
      const hold = await holdOf(holdKey);
      expect(hold).toMatchObject({ state: "released", reason: `${g?.state}: ${g?.error?.reason}` });
      expect(events).toEqual([{ step: "ended", g, released: unit * 2 }]);
    }
  });

  test("cancel is the owner's only, and gives the credits back", async () => {
    const { u, id } = await inState("queued");
    expect(await generations.cancel(id, u + 1)).toBeNull();
    expect(await generations.cancel("00000000-0000-0000-0000-000000000000", u)).toBeNull();
    const g = await generations.cancel(id, u);
    expect(g).toMatchObject({ state: "cancelled", error: { reason: "cancelled_by_user" } });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
  });

  test("complete charges what came, keeps the outputs and the service's cost, and tells the operator", async () => {
    const { u, id, holdKey } = await inState("pending", { serviceCredits: 3 });
    events.length = 0;
    clockNow += 1000;
    const r = await generations.complete(id, {
      images: ["https://x/1.png"],
      videos: ["https://x/2.mp4"],
      audios: ["https://x/3.mp3"],
    });
    const g = r?.generation;
    expect(r?.late).toBe(false);
    expect(g).toMatchObject({
      state: "completed",
      charged: unit,
      late: false,
      serviceCredits: 3,
      finishedAt: new Date(clockNow),
      outputs: [{ url: "https://x/1.png" }, { url: "https://x/2.mp4" }, { url: "https://x/3.mp3" }],
    });
    expect(await holdOf(holdKey)).toMatchObject({ state: "charged", chargedAmount: unit });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100 - unit, held: 0 });
    expect(events).toEqual([{ step: "completed", g, charged: unit, late: false }]);

    const other = await inState("pending", { serviceCredits: 3 });
    const withCost = await generations.complete(other.id, outputs, { serviceCredits: 9 });
    expect(withCost?.generation.serviceCredits).toBe(9);
    expect(await generations.complete("00000000-0000-0000-0000-000000000000", outputs)).toBeNull();
  });

  test("a late result is free and told as late", async () => {
    const { u, id } = await inState("expired");
    events.length = 0;
    const r = await generations.complete(id, outputs);
    expect(r).toMatchObject({ late: true, generation: { charged: 0, late: true } });
    expect(events).toEqual([{ step: "completed", g: r?.generation, charged: 0, late: true }]);
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
  });

  test("delivery counts its attempts and keeps what Telegram gave back; the operator is told", async () => {
    const { id } = await inState("completed");
    expect(await generations.startDelivery(id)).toMatchObject({ deliveryAttempts: 1 });
    expect(await generations.startDelivery(id)).toMatchObject({ deliveryAttempts: 2 });
    events.length = 0;
    const g = await generations.finishDelivery(id, [11, 12], ["file-a"]);
    expect(g).toMatchObject({ state: "delivered", deliveredMessageIds: [11, 12], fileIds: ["file-a"] });
    expect(events).toEqual([{ step: "delivered", g }]);
  });

  test("an undeliverable result is refunded in full, once, with the reason; a free one refunds nothing", async () => {
    const { u, id, holdKey } = await inState("delivering");
    events.length = 0;
    const g = await generations.refundUndeliverable(id, "file gone");
    expect(g).toMatchObject({ state: "failed", error: { reason: "undeliverable", message: "file gone" } });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
    expect(await holdOf(holdKey)).toMatchObject({ refundedAmount: unit * 2 });
    expect(events).toEqual([{ step: "refunded", g, refunded: unit * 2 }]);
    expect(await generations.refundUndeliverable(id, "file gone")).toBeNull();

    // a late result was charged nothing: nothing to refund
    const free = await inState("completed", { charged: 0, late: true });
    const before = await ledger.account(free.u);
    expect(await generations.refundUndeliverable(free.id, "gone")).toMatchObject({ state: "failed" });
    expect(await ledger.account(free.u)).toEqual(before);
  });

  test("submitted is told on accept and on an adoption that takes the task, not on a given-up one", async () => {
    const a = await inState("submitting");
    events.length = 0;
    const accepted = await generations.accept(a.id, { taskId: `t-${a.id}` });
    expect(events).toEqual([{ step: "submitted", g: accepted }]);
    const b = await inState("queued");
    events.length = 0;
    const adopted = await generations.adopt(b.id, { taskId: `t-${b.id}` });
    expect(events).toEqual([{ step: "submitted", g: adopted }]);
    const c = await inState("failed");
    events.length = 0;
    await generations.adopt(c.id, { taskId: `t-${c.id}` });
    expect(events).toEqual([]);
  });
  test("each operation's deadline: image and edit 10 minutes, video 20, dubbing 30", () => {
    const minute = 60_000;
    expect(["image", "edit", "video", "dub"].map((op) => generations.deadlineOf(op as "image"))).toEqual([
      10 * minute,
      10 * minute,
      20 * minute,
      30 * minute,
    ]);
  });

  test("the reconciler's view: every running or to-deliver state, and bad ends not yet told", async () => {
    const ids = new Map<GenerationState, string>();
    for (const state of allStates) ids.set(state, (await inState(state)).id);
    const told = await inState("failed", { notifiedAt: new Date(clockNow) });
    const listed = new Set((await generations.unfinished()).map((r) => r.id));
    const seen = allStates.filter((s) => listed.has(ids.get(s) ?? ""));
    expect(seen).toEqual([
      "queued",
      "submitting",
      "pending",
      "completed",
      "delivering",
      "failed",
      "rejected",
      "expired",
    ]);
    expect(listed.has(told.id)).toBe(false);
  });

  test("stored results may go only for generations at rest since before the cutoff", async () => {
    const old = new Date(clockNow - 86_400_000);
    const ids = new Map<GenerationState, string>();
    for (const state of allStates) ids.set(state, (await inState(state, { finishedAt: old })).id);
    const recentEnd = await inState("delivered", { finishedAt: new Date(clockNow) });
    const cutoff = new Date(clockNow - 3_600_000);
    const resting = new Set(await generations.restingSince([...ids.values(), recentEnd.id], cutoff));
    expect(allStates.filter((s) => resting.has(ids.get(s) ?? ""))).toEqual([
      "delivered",
      "failed",
      "rejected",
      "expired",
      "cancelled",
    ]);
    expect(resting.has(recentEnd.id)).toBe(false);
    expect(await generations.restingSince([], cutoff)).toEqual([]);
  });

  test("the queue place, the counts by state and the look-up by task id", async () => {
    const waiting = await generations.waitingCount();
    const counts = await generations.countByState();
    const q = await inState("queued");
    await inState("submitting");
    await inState("pending");
    expect(await generations.waitingCount()).toBe(waiting + 2);
    const after = await generations.countByState();
    expect(after).toEqual({
      ...counts,
      queued: (counts.queued ?? 0) + 1,
      submitting: (counts.submitting ?? 0) + 1,
      pending: (counts.pending ?? 0) + 1,
    });
    await generations.startSubmit(q.id);
    const accepted = await generations.accept(q.id, { taskId: `task-${q.id}` });
    expect(await generations.byTaskId(`task-${q.id}`)).toEqual(accepted);
    expect(await generations.byTaskId("no-such-task")).toBeNull();
  });
  /** a queued image request of user `u` (granted enough credits first) */
  async function requestOf(u: number, key: string, prompt = "a fox") {
    await ledger.grant({ userId: u, amount: 100, key: `grant-${key}` });
    const r = await generations.create({
      key,
      userId: u,
      language: "en",
      chat: { chatId: u },
      params: { operation: "image", prompt, model: "nano-core-2", imageSize: "1:1", numImages: 1 },
    });
    if (!r.ok) throw new Error(`not created: ${r.reason}`);
    return r.generation;
  }
  const setRow = (id: string, values: Partial<Generation>) =>
    database.db.update(generationsTable).set(values).where(eq(generationsTable.id, id));

  test("an admin's cancellation takes only this user's queued requests, each released once", async () => {
    const u = nextUser++;
    const a = await requestOf(u, `cq-a-${u}`);
    const b = await requestOf(u, `cq-b-${u}`);
    const running = await requestOf(u, `cq-c-${u}`);
    await setRow(running.id, { state: "pending" });
    const other = await requestOf(nextUser++, `cq-d-${u}`);

    const cancelled = await generations.cancelQueuedOf(u);
    expect(cancelled.map((g) => g.id).sort()).toEqual([a.id, b.id].sort());
    for (const g of cancelled) {
      expect(g).toMatchObject({ state: "cancelled", error: { reason: "cancelled_by_admin" } });
      expect(await holdOf(g.holdKey)).toMatchObject({ state: "released" });
    }
    expect(await stateOf(running.id)).toBe("pending");
    expect(await holdOf(running.holdKey)).toMatchObject({ state: "open" });
    expect(await stateOf(other.id)).toBe("queued");
    expect(await generations.cancelQueuedOf(u)).toEqual([]);
    expect(await ledger.audit()).toEqual([]);
  });

  test("stuck: requests not at rest whose last move is before the cutoff, oldest first, up to the limit", async () => {
    // long before anything else in this database, so only these are old enough
    const at = (hour: number) => new Date(Date.UTC(2020, 0, 1, hour));
    const pending = await inState("pending", { updatedAt: at(1) });
    const delivering = await inState("delivering", { updatedAt: at(2) });
    await inState("delivered", { updatedAt: at(0) });
    await inState("failed", { updatedAt: at(0) });
    await inState("queued", { updatedAt: at(5) });
    const found = await generations.stuck(at(4), 10);
    expect(found.map((g) => [g.id, g.state])).toEqual([
      [pending.id, "pending"],
      [delivering.id, "delivering"],
    ]);
    expect(found[0]).toMatchObject({ userId: pending.u, operation: "image", updatedAt: at(1) });
    expect((await generations.stuck(at(4), 1)).map((g) => g.id)).toEqual([pending.id]);
  });

  test("delivered results with kept files, newest first; a match is any-case and takes % and _ literally", async () => {
    const u = nextUser++;
    const at = (minute: number) => new Date(clockNow + minute * 60_000);
    const delivered = async (
      key: string,
      prompt: string,
      minute: number,
      fileIds: string[] | null = ["f"],
    ) => {
      const g = await requestOf(u, `dw-${key}-${u}`, prompt);
      await setRow(g.id, { state: "delivered", fileIds, createdAt: at(minute) });
      return g.id;
    };
    const fox = await delivered("fox", "a red Fox", 1);
    const whale = await delivered("whale", "a 100% blue whale", 2);
    const owl = await delivered("owl", "green_owl", 3);
    await delivered("nofiles", "a fox without files", 4, null);
    await delivered("empty", "a fox with none kept", 5, []);
    const failed = await requestOf(u, `dw-failed-${u}`, "a failed fox");
    await setRow(failed.id, { state: "failed", fileIds: ["f"] });
    const others = await requestOf(nextUser++, `dw-other-${u}`, "another's fox");
    await setRow(others.id, { state: "delivered", fileIds: ["f"], createdAt: at(9) });

    const ids = async (match?: string, limit = 10) =>
      (await generations.deliveredWithFiles(u, { ...(match === undefined ? {} : { match }), limit })).map(
        (g) => g.id,
      );
    expect(await ids()).toEqual([owl, whale, fox]);
    expect(await ids("  ")).toEqual([owl, whale, fox]);
    expect(await ids("FOX")).toEqual([fox]);
    expect(await ids("100%")).toEqual([whale]);
    expect(await ids("%")).toEqual([whale]);
    expect(await ids("_")).toEqual([owl]);
    expect(await ids(undefined, 1)).toEqual([owl]);
  });

  test("a ledger that refuses to release, charge or refund stops the arrow: the state does not move", async () => {
    const refuse = async () => ({ ok: false as const, reason: "not_found" as const });
    const stubborn = createGenerations({
      db: database.db,
      credits: { ...ledger, release: refuse, charge: refuse, refund: refuse } as unknown as Ledger,
      prices,
      queues: { submit: async () => undefined, sync: async () => undefined, deliver: async () => undefined },
      clock,
      logger: pino({ level: "silent" }),
    });
    const p = await inState("pending");
    await expect(stubborn.fail(p.id, anError)).rejects.toThrow(/could not be released/);
    await expect(stubborn.complete(p.id, outputs)).rejects.toThrow(/could not be charged/);
    expect(await stateOf(p.id)).toBe("pending");
    const d = await inState("delivering");
    await expect(stubborn.refundUndeliverable(d.id, "gone")).rejects.toThrow(/refund of/);
    expect(await stateOf(d.id)).toBe("delivering");
  });

  test("a long reason for an undeliverable result still refunds (the ledger's note is cut to 400)", async () => {
    const { u, id, holdKey } = await inState("completed");
    const why = "x".repeat(600);
    expect(await generations.refundUndeliverable(id, why)).toMatchObject({ state: "failed" });
    expect(await holdOf(holdKey)).toMatchObject({ refundedAmount: unit * 2 });
    expect(await ledger.account(u)).toEqual({ userId: u, available: 100, held: 0 });
  });

  test("only expired, or failed for service_unavailable, and not yet late, may still complete", () => {
    const g = (state: GenerationState, reason?: string, late = false) =>
      ({ state, late, error: reason ? { reason } : null }) as Generation;
    expect(mayStillComplete(g("expired"))).toBe(true);
    expect(mayStillComplete(g("failed", "service_unavailable"))).toBe(true);
    expect(mayStillComplete(g("failed", "task_failed"))).toBe(false);
    expect(mayStillComplete(g("rejected", "service_unavailable"))).toBe(false);
    expect(mayStillComplete(g("cancelled", "service_unavailable"))).toBe(false);
    expect(mayStillComplete(g("expired", undefined, true))).toBe(false);
  });
});
