import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { imageUnitPrice } from "../../../sandbox/simulator/pricing";
import { type Simulator, startSimulator } from "../../../sandbox/simulator/server";
import { scaledClock } from "../../../src/platform/lib/clock";
import { classifyTask } from "../../../src/platform/media-service/task-status";
import { parseWebhook } from "../../../src/platform/media-service/webhook";
import { clientFor, quiet, settle, startWebhookReceiver, waitFor } from "../../support/media-service";

/** Fault injection: what the bot must survive, made on demand. */

const clock = scaledClock(200);
let sim: Simulator;
let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
let client: ReturnType<typeof clientFor>;
let n = 0;
const k = () => ({ idempotencyKey: `faults-${++n}` });
const hooksFor = (id: string) => hooks.received.filter((h) => h.body.includes(id));

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  sim = await startSimulator({
    apiKey: "faults-key",
    clock,
    webhook: { url: hooks.url },
    webhookRetryDelaysMs: [1000, 2000, 4000],
  });
  client = clientFor(sim);
});
afterAll(async () => {
  await sim.close();
  await hooks.close();
});
beforeEach(() => sim.faults.clear());

describe("task faults", () => {
  it("reports an intermediate processing status, seen as running, then completes", async () => {
    sim.faults.nextTask({ processingStatus: true, extraLatencyMs: 60_000 });
    const reg = await client.createImage({ prompt: "p" }, k());
    const running = await waitFor(async () => {
      const t = await client.getTask(reg.id);
      return t.status === "processing" ? t : undefined;
    });
    expect(classifyTask(running)).toEqual({ outcome: "running", status: "processing" });
    expect((await settle(client, reg.id)).task.status).toBe("completed");
  });

  it("completes with fewer images than asked, charging the operator for those only", async () => {
    sim.faults.nextTask({ operation: "image", imagesReturned: 2 });
    await quiet(sim);
    const before = sim.balance();
    const reg = await client.createImage({ prompt: "p", num_images: 4 }, k());
    const { task, outcome } = await settle(client, reg.id);
    expect(outcome.outcome).toBe("succeeded");
    expect(task.images).toHaveLength(2);
    await quiet(sim);
    expect(sim.balance().spent - before.spent).toBe(2 * imageUnitPrice("nano-core-2", "1K"));
  });

  it("completes with no output at all, which the bot must treat as failed", async () => {
    sim.faults.nextTask({ imagesReturned: 0 });
    const reg = await client.createImage({ prompt: "p" }, k());
    const { task, outcome } = await settle(client, reg.id);
    expect(task.status).toBe("completed");
    expect(outcome).toMatchObject({ outcome: "failed", reason: "completed without any output" });
  });

  it("fails a task with a given status and error", async () => {
    sim.faults.nextTask({ fail: { status: "cancelled", code: "cancelled", message: "stopped" } });
    const reg = await client.createVideo({ prompt: "p" }, k());
    const { task } = await settle(client, reg.id);
    expect(task.status).toBe("cancelled");
    expect(task.error).toEqual({ code: "cancelled", message: "stopped" });
  });

  it("takes a fault only for the operation it names", async () => {
    sim.faults.nextTask({ operation: "video", fail: true });
    const image = await client.createImage({ prompt: "p" }, k());
    const video = await client.createVideo({ prompt: "p" }, k());
    expect((await settle(client, image.id)).outcome.outcome).toBe("succeeded");
    expect((await settle(client, video.id)).outcome.outcome).toBe("failed");
  });
});

describe("create faults", () => {
  it.each([500, 429, 401])("answers %i to the next create, then recovers", async (status) => {
    sim.faults.nextCreate({ status });
    const first = await fetch(`${sim.url}/api/v1/images/generations`, {
      method: "POST",
      headers: { authorization: "Bearer faults-key", "content-type": "application/json" },
      body: JSON.stringify({ prompt: "p" }),
    });
    expect(first.status).toBe(status);
    const body = (await first.json()) as { error: { code: string } };
    expect(body.error.code).toEqual(expect.any(String));
    expect((await client.createImage({ prompt: "p" }, k())).status).toBe("pending");
  });

  it("replays a registration for a repeated Idempotency-Key", async () => {
    const once = k();
    const a = await client.createImage({ prompt: "same" }, once);
    const b = await client.createImage({ prompt: "same" }, once);
    expect(b.id).toBe(a.id);
    expect(sim.tasks().filter((t) => t.id === a.id)).toHaveLength(1);
  });
});

describe("webhook faults and delivery", () => {
  it("retries a refused delivery with the same webhook-id", async () => {
    // wait until other tasks' deliveries are over: the receiver answers in arrival order
    await quiet(sim);
    const flaky = await startWebhookReceiver([500, 503]);
    sim.setWebhook({ url: flaky.url });
    try {
      const reg = await client.createImage({ prompt: "p" }, k());
      const mine = () => flaky.received.filter((h) => h.body.includes(reg.id));
      await waitFor(() => (mine().length >= 3 ? true : undefined));
      expect(new Set(mine().map((h) => h.headers["webhook-id"])).size).toBe(1);
      const attempts = await waitFor(() => {
        const mine = sim.webhookDeliveries.filter((d) => d.taskId === reg.id);
        return mine.length >= 3 ? mine : undefined;
      });
      expect(attempts.map((d) => d.status)).toEqual([500, 503, 200]);
      // the second attempt waited for the first retry delay (1000 clock ms)
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(800);
    } finally {
      sim.setWebhook({ url: hooks.url });
      await flaky.close();
    }
  });

  it("duplicates a delivery", async () => {
    sim.faults.nextTask({ webhook: "duplicate" });
    const reg = await client.createImage({ prompt: "p" }, k());
    await waitFor(() => (hooksFor(reg.id).length === 2 ? true : undefined));
    const [a, b] = hooksFor(reg.id);
    expect(a!.body).toBe(b!.body);
    expect(parseWebhook(a!.body, a!.headers)).toMatchObject({ ok: true, taskId: reg.id });
  });

  it("drops a delivery: the task completes and no webhook comes", async () => {
    sim.faults.nextTask({ webhook: "drop" });
    const dropped = await client.createImage({ prompt: "p" }, k());
    const control = await client.createImage({ prompt: "p" }, k());
    await settle(client, dropped.id);
    await waitFor(() => (hooksFor(control.id).length > 0 ? true : undefined));
    expect(hooksFor(dropped.id)).toEqual([]);
  });

  it("delays a delivery past the completion", async () => {
    sim.faults.nextTask({ webhook: { delayMs: 60_000 } });
    const reg = await client.createImage({ prompt: "p" }, k());
    const { task } = await settle(client, reg.id);
    expect(hooksFor(reg.id)).toEqual([]);
    const delivered = await waitFor(() => sim.webhookDeliveries.find((d) => d.taskId === reg.id));
    // timers may fire a little early: what matters is that it is late, not that it is exact
    expect(delivered.at - Date.parse(task.completed_at!)).toBeGreaterThanOrEqual(50_000);
  });

  it("sends the body as {event, data: task}", async () => {
    const reg = await client.createImage({ prompt: "p", metadata: { gid: "shape" } }, k());
    const hook = await waitFor(() => hooksFor(reg.id)[0]);
    const body = JSON.parse(hook.body) as {
      event: string;
      data: { id: string; status: string; metadata: object };
    };
    expect(body.event).toBe("task.completed");
    expect(body.data).toMatchObject({ id: reg.id, status: "completed", metadata: { gid: "shape" } });
    expect(hook.headers["webhook-signature"]).toBeUndefined(); // no secret configured
  });
});
