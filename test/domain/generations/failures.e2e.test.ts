import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { translate } from "../../../src/platform/i18n/i18n";
import { signGid } from "../../../src/platform/storage/signed-tokens";
import {
  deleteRedisKeys,
  eventually,
  generationIn,
  type Harness,
  requestImage,
  startedUser,
  startHarness,
} from "../../support/harness";
import { plain } from "../../support/messages";

/** Strips the Unicode isolation marks Fluent puts around variables in Persian. */

describe("when things go wrong, the user is told and pays nothing twice", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  /** No sync or deliver job of this generation is waiting or running: what its webhooks started has finished. */
  const jobsDone = (id: string) =>
    eventually(async () => {
      const [sync, deliver] = await Promise.all([
        h.runtime.queues.of("sync").getJob(id),
        h.runtime.queues.of("deliver").getJob(id),
      ]);
      return !sync && !deliver ? true : undefined;
    });
  /** The service's GETs of one task, as the sync step makes them. */
  const taskLookups = (taskId: string) =>
    h.sim.requests.filter(
      (r) => r.method === "GET" && r.path === `/api/v1/tasks/${encodeURIComponent(taskId)}`,
    ).length;

  test("the service fails the task: credits released, the user told in Persian", async () => {
    const user = await startedUser(h, "fa");
    h.sim.faults.nextTask({ fail: true });
    const status = await requestImage(user);
    const g = await generationIn(h, user.id, "failed");
    const told = plain(translate("fa", "gen-failed", { price: g.price }));
    await user.waitFor((m) => m.message_id === status.message_id && plain(m.text) === told);
    expect(await h.runtime.ledger.account(user.id)).toEqual({ userId: user.id, available: 100, held: 0 });
  });

  test("a create rejected with 400: nothing held, the user told why", async () => {
    const user = await startedUser(h);
    h.sim.faults.nextCreate({ status: 400, code: "invalid_request" });
    const status = await requestImage(user);
    await generationIn(h, user.id, "rejected");
    await user.waitFor(
      (m) => m.message_id === status.message_id && Boolean(m.text?.includes("not accepted")),
    );
    expect(await h.runtime.ledger.account(user.id)).toEqual({ userId: user.id, available: 100, held: 0 });
  });

  test("insufficient credits: nothing created, the user told how many are missing", async () => {
    const user = await startedUser(h);
    await h.runtime.ledger.adjust({ userId: user.id, amount: -98, key: `drain-${user.id}` });
    const status = await requestImage(user);
    const message = await user.waitFor(
      (m) => m.message_id === status.message_id && Boolean(m.text?.includes("Not enough")),
    );
    const quote = createPrices(loadPriceTable()).image("nano-core-2", undefined, 1);
    expect(message.text).toContain(`You need ${(quote.ok ? quote.credits : Number.NaN) - 2} more`);
    expect(await h.runtime.generations.recent(user.id)).toEqual([]);
    expect(await h.runtime.ledger.account(user.id)).toEqual({ userId: user.id, available: 2, held: 0 });
  });

  test("a duplicated webhook charges once and delivers once", async () => {
    const user = await startedUser(h);
    h.sim.faults.nextTask({ webhook: "duplicate" });
    await requestImage(user);
    const g = await generationIn(h, user.id, "delivered");
    await eventually(async () =>
      h.sim.webhookDeliveries.filter((d) => d.taskId === g.taskId).length >= 2 ? true : undefined,
    );
    // both webhooks were answered (each enqueues a sync first): wait until what they started has run
    await jobsDone(g.id);
    expect(user.messages().filter((m) => m.photo)).toHaveLength(1);
    expect(await h.runtime.ledger.account(user.id)).toEqual({
      userId: user.id,
      available: 100 - g.price,
      held: 0,
    });
  });

  test("forged webhooks are refused and change nothing", async () => {
    const user = await startedUser(h);
    h.sim.faults.nextTask({ webhook: "drop", extraLatencyMs: 60_000 });
    await requestImage(user);
    const g = await generationIn(h, user.id, "pending");
    const url = `${h.config.publicUrl}/webhooks/media/${h.config.media.webhookSecret}`;
    const post = (path: string, body: unknown) =>
      fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const forgedSig = await post(url, {
      event: "task.completed",
      data: { id: g.taskId, metadata: { gid: g.id, sig: "0".repeat(32) } },
    });
    expect(forgedSig.status).toBe(403);
    const wrongPath = await post(`${h.config.publicUrl}/webhooks/media/guess`, { id: g.taskId });
    expect(wrongPath.status).toBe(404);
    const notJson = await fetch(url, { method: "POST", body: "not json" });
    expect(notJson.status).toBe(400);
    expect((await h.runtime.generations.get(g.id))?.state).toBe("pending");
    // a real-looking hint is only a hint: the task is fetched, and it is still running
    const lookups = taskLookups(g.taskId!);
    const hint = await post(url, {
      event: "task.completed",
      data: {
        id: g.taskId,
        status: "completed",
        images: ["https://evil.example/x.png"],
        metadata: { gid: g.id, sig: signGid(h.config.signingSecret, g.id) },
      },
    });
    expect(hint.status).toBe(200);
    // the hint brought the poll forward: the task was fetched, and the poll went back to sleep
    await eventually(async () => {
      if (taskLookups(g.taskId!) <= lookups) return undefined;
      return (await h.runtime.queues.of("sync").getJob(g.id))?.isDelayed() ? true : undefined;
    });
    expect((await h.runtime.generations.get(g.id))?.state).toBe("pending");
    // and the real result still arrives by polling
    const done = await generationIn(h, user.id, "delivered");
    expect(JSON.stringify(done.outputs)).not.toContain("evil.example");
  });

  test("a webhook that never arrives: polling completes the generation", async () => {
    const user = await startedUser(h);
    h.sim.faults.nextTask({ webhook: "drop" });
    await requestImage(user);
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const g = await generationIn(h, user.id, "delivered");
    expect(h.sim.webhookDeliveries.some((d) => d.taskId === g.taskId)).toBe(false);
    expect(await h.runtime.ledger.account(user.id)).toEqual({
      userId: user.id,
      available: 100 - g.price,
      held: 0,
    });
  });

  test("fewer images than asked: an album of what came, charged for what came", async () => {
    const user = await startedUser(h);
    h.sim.faults.nextTask({ imagesReturned: 2 });
    const r = await h.runtime.generations.create({
      key: `album-${user.id}`,
      userId: user.id,
      language: "en",
      chat: { chatId: user.chatId },
      params: { operation: "image", prompt: "four foxes", model: "nano-pro", imageSize: "1:1", numImages: 4 },
    });
    if (!r.ok) throw new Error(`not created: ${r.reason}`);
    const g = await generationIn(h, user.id, "delivered");
    expect(user.messages().filter((m) => m.photo)).toHaveLength(2);
    expect(g.price).toBe(4 * (g.charged! / 2));
    expect(await h.runtime.ledger.account(user.id)).toEqual({
      userId: user.id,
      available: 100 - g.charged!,
      held: 0,
    });
  });

  test("a result Telegram refuses for good is refunded and the user told, not retried forever", async () => {
    const user = await startedUser(h);
    h.tg.failNext("sendPhoto", { code: 400, description: "Bad Request: PHOTO_INVALID_DIMENSIONS" });
    const status = await requestImage(user, "an impossible picture");
    const g = await generationIn(h, user.id, "failed");
    expect(g.error).toMatchObject({ reason: "undeliverable" });
    // in a new message (an edit notifies nobody), the old status gone
    await user.waitFor(
      (m) => m.message_id > status.message_id && Boolean(m.text?.includes("could not be sent")),
    );
    await eventually(async () =>
      user.messages().some((m) => m.message_id === status.message_id) ? undefined : true,
    );
    expect(await h.runtime.ledger.account(user.id)).toEqual({ userId: user.id, available: 100, held: 0 });
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
  });
});

describe("the reconciler", () => {
  let h: Harness;
  beforeAll(async () => {
    // the default harness reconciles too rarely to matter; this one every 0.3 s of real time
    h = await startHarness({ timing: { reconcileEveryMs: 30_000 } });
  });
  afterAll(async () => h?.stop());

  test("Redis flushed mid-flight: the reconciler puts the work back and it completes, charged once", async () => {
    const user = await startedUser(h);
    h.sim.faults.nextTask({ webhook: "drop", extraLatencyMs: 20_000 });
    await requestImage(user);
    await generationIn(h, user.id, "pending");
    await deleteRedisKeys(h.config.redis.prefix);
    const g = await generationIn(h, user.id, "delivered", 30_000);
    expect(user.messages().filter((m) => m.photo)).toHaveLength(1);
    expect(await h.runtime.ledger.account(user.id)).toEqual({
      userId: user.id,
      available: 100 - g.price,
      held: 0,
    });
    expect(await h.runtime.ledger.audit()).toEqual([]);
  });
});
