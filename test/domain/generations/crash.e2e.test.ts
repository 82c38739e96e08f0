import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { defaultTiming } from "../../../src/runtime/settings";
import {
  eventually,
  generationIn,
  type Harness,
  requestImage,
  startedUser,
  startHarness,
} from "../../support/harness";

/**
 * The worker is a real process, killed with SIGKILL in the middle of its work;
 * a new one takes over. The web role (bot, webhooks) runs in this process.
 */
describe("a worker killed mid-flight loses nothing", () => {
  let h: Harness;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    h = await startHarness({
      env: { ROLE: "web" },
      // long enough that the webhook adopts the task before a resubmission would
      timing: { adoptionGraceMs: 20 * 60_000 },
    });
  });
  afterAll(async () => {
    worker?.kill("SIGKILL");
    await h?.stop();
  });

  /** The worker told the chat it is uploading the result: the upload (held by Telegram) follows at once. */
  const uploading = (chatId: number) =>
    eventually(async () =>
      h.tg
        .callsOf("sendChatAction")
        .some((c) => Number(c.params.chat_id) === chatId && c.params.action === "upload_photo")
        ? true
        : undefined,
    );

  async function kill(child: ChildProcess) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  test("killed while its create request is in flight: the task is adopted by gid, charged once, delivered", async () => {
    // the worker another test left running, if one ran first (the order is shuffled)
    worker ??= await h.spawnWorker();
    const user = await startedUser(h);
    // a resend with the same key would make a second task: only adoption by gid avoids a duplicate
    h.sim.faults.forgetIdempotencyKeys();
    // the service holds the create for 10 real seconds: the worker dies waiting for it
    h.sim.faults.nextCreate({ delayMs: 1_000_000 });
    await requestImage(user, "a lighthouse in a storm");
    const g = await generationIn(h, user.id, "submitting");
    // this generation's own create (its body carries the gid): another test's create proves nothing here
    await eventually(async () =>
      h.sim.requests.some((r) => r.path === "/api/v1/images/generations" && r.body.includes(g.id))
        ? true
        : undefined,
    );
    await kill(worker);
    worker = await h.spawnWorker();
    const done = await generationIn(h, user.id, "delivered", 40_000);
    const tasksOfGid = h.sim.tasks().filter((t) => t.metadata?.gid === g.id);
    expect(tasksOfGid).toHaveLength(1);
    expect(done.taskId).toBe(tasksOfGid[0]!.id);
    expect(user.messages().filter((m) => m.photo).length).toBeGreaterThanOrEqual(1);
    expect(await h.db.db.$count((await import("../../../src/platform/db/schema")).orphanTasks)).toBe(0);
    expect(await h.runtime.ledger.account(user.id)).toEqual({
      userId: user.id,
      available: 100 - done.price,
      held: 0,
    });
    expect(await h.runtime.ledger.audit()).toEqual([]);
    h.sim.faults.clear();
  });

  test("killed while uploading the result: delivered by the next worker, charged once", async () => {
    worker ??= await h.spawnWorker();
    const user = await startedUser(h);
    h.tg.delayNext("sendPhoto", 3_000);
    await requestImage(user, "a fox in the snow");
    await generationIn(h, user.id, "delivering", 30_000);
    // the upload is held by Telegram for 3 s: the worker dies in the middle of it
    await uploading(user.chatId);
    await kill(worker);
    worker = await h.spawnWorker();
    const done = await generationIn(h, user.id, "delivered", 40_000);
    // at least once: the interrupted upload may also have arrived
    expect(user.messages().filter((m) => m.photo).length).toBeGreaterThanOrEqual(1);
    const attempts = await h.runtime.generations.deliveriesOf(done.id);
    expect(attempts.map((a) => a.state)).toEqual(["sending", "sent"]);
    expect(done.deliveryAttempts).toBe(2);
    expect(await h.runtime.ledger.account(user.id)).toEqual({
      userId: user.id,
      available: 100 - done.price,
      held: 0,
    });
    expect(await h.runtime.ledger.audit()).toEqual([]);
  });

  test("SIGTERM mid-upload: the worker finishes the job it holds, then exits cleanly", async () => {
    worker ??= await h.spawnWorker();
    const user = await startedUser(h);
    h.tg.delayNext("sendPhoto", 1_500);
    await requestImage(user, "a calm lake");
    await generationIn(h, user.id, "delivering", 30_000);
    await uploading(user.chatId);
    const exited = new Promise<number | null>((resolve) => worker!.once("exit", (code) => resolve(code)));
    worker.kill("SIGTERM");
    expect(await exited).toBe(0);
    worker = undefined;
    const done = await generationIn(h, user.id, "delivered", 5_000);
    const attempts = await h.runtime.generations.deliveriesOf(done.id);
    expect(attempts.map((a) => a.state)).toEqual(["sent"]);
    expect(user.messages().filter((m) => m.photo)).toHaveLength(1);
  });
});

/**
 * How soon a generation whose create died with its worker is settled: its
 * create never reached the service, so nothing can adopt it, and it is sent
 * again once the adoption grace (30 s) is over. The clock runs 4 times real
 * time, so the restart itself (a few real seconds) does not use up the grace.
 */
describe("a worker killed while submitting: the generation is settled within 60 s of the restart", () => {
  const clockFactor = 4;
  let h: Harness;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    h = await startHarness({
      clockFactor,
      env: { ROLE: "web" },
      timing: { adoptionGraceMs: defaultTiming.adoptionGraceMs },
    });
  });
  afterAll(async () => {
    worker?.kill("SIGKILL");
    await h?.stop();
  });

  test("sent again with the same key after the grace, delivered, charged once", async () => {
    worker = await h.spawnWorker();
    const user = await startedUser(h);
    // the service holds the create, then refuses it: the worker dies before any task exists
    h.sim.faults.nextCreate({ delayMs: 30 * 60_000, status: 503 });
    await requestImage(user, "a kite over the dunes");
    const g = await generationIn(h, user.id, "submitting");
    await eventually(async () =>
      h.sim.requests.some((r) => r.path === "/api/v1/images/generations" && r.body.includes(g.id))
        ? true
        : undefined,
    );
    const exited = new Promise((resolve) => worker?.once("exit", resolve));
    worker.kill("SIGKILL");
    await exited;
    worker = await h.spawnWorker();
    const restartedAt = h.clock.now();
    const boundMs = 60_000;
    // a task for it at the service: the resend was made (waited for past the bound, to see by how much)
    const settled = await eventually(
      async () => {
        const now = await h.runtime.generations.get(g.id);
        return now?.taskId ? now : undefined;
      },
      (2 * boundMs) / clockFactor,
    ).catch(() => undefined);
    const settledAfterMs = h.clock.now() - restartedAt;
    expect(settled, `not settled ${settledAfterMs} ms (clock) after the restart`).toBeDefined();
    expect(settledAfterMs).toBeLessThanOrEqual(boundMs);
    const done = await generationIn(h, user.id, "delivered", 30_000);
    expect(h.sim.tasks().filter((t) => t.metadata?.gid === g.id)).toHaveLength(1);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 100 - done.price, held: 0 });
    h.sim.faults.clear();
  }, 90_000);
});
