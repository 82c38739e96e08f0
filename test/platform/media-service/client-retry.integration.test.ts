import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../../../sandbox/simulator/server";
import { scaledClock } from "../../../src/platform/lib/clock";
import { backoffDelay } from "../../../src/platform/media-service/backoff";
import { createMediaClient } from "../../../src/platform/media-service/client";
import { MediaServiceError } from "../../../src/platform/media-service/errors";
import { settle, startFileHost, wav } from "../../support/media-service";

/** Retries: only where safe, with backoff and jitter, and never making a second task. */

let sim: Simulator;
let waits: number[];
const creates = () => sim.requests.filter((r) => r.method === "POST");

beforeAll(async () => {
  sim = await startSimulator({ apiKey: "retry-key", clock: scaledClock(200) });
});
afterAll(() => sim.close());
beforeEach(() => {
  waits = [];
  sim.requests.length = 0;
  sim.faults.clear();
});

const client = (extra: Partial<Parameters<typeof createMediaClient>[0]> = {}) =>
  createMediaClient({
    baseUrl: sim.url,
    apiKey: "retry-key",
    retryBaseMs: 100,
    maxRetries: 3,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  });

describe("a create that gets 500 and then 200", () => {
  it("makes exactly one task, every attempt with the same Idempotency-Key", async () => {
    sim.faults.nextCreate({ status: 500 });
    const before = sim.tasks().length;
    const reg = await client().createImage({ prompt: "once" }, { idempotencyKey: "gen-1" });
    expect(creates()).toHaveLength(2);
    expect(creates().map((r) => r.headers["idempotency-key"])).toEqual(["gen-1", "gen-1"]);
    expect(sim.tasks().length - before).toBe(1);
    expect(sim.task(reg.id)).toBeDefined();
  });

  it("also when the 500 came after the task was registered (a lost answer)", async () => {
    sim.faults.nextCreate({ status: 503, afterCreate: true });
    const before = sim.tasks().length;
    const reg = await client().createVideo({ prompt: "once" }, { idempotencyKey: "gen-2" });
    expect(creates()).toHaveLength(2);
    expect(sim.tasks().length - before).toBe(1);
    expect(sim.tasks().at(-1)!.id).toBe(reg.id);
    expect((await settle(client(), reg.id)).outcome.outcome).toBe("succeeded");
  });

  it("the same key with a different body is refused, not a second task", async () => {
    await client().createImage({ prompt: "a" }, { idempotencyKey: "gen-3" });
    await expect(client().createImage({ prompt: "b" }, { idempotencyKey: "gen-3" })).rejects.toMatchObject({
      status: 409,
      retryable: false,
    });
  });
});

describe("what is never retried", () => {
  it("a 400 from the service", async () => {
    // the 5-minute limit of a dubbing source is only known to the service: the client cannot refuse it itself
    const host = await startFileHost();
    try {
      const long = host.put("/long.wav", wav(301), "audio/wav");
      await expect(
        client().createDubbing({ source_url: long, target_language: "fa" }, { idempotencyKey: "d" }),
      ).rejects.toMatchObject({
        kind: "invalid_request",
        status: 400,
        code: "invalid_request",
        retryable: false,
      });
      expect(creates()).toHaveLength(1);
      expect(host.hits).toEqual(["/long.wav"]);
      expect(waits).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it.each([
    [401, "unauthorized"],
    [403, "unauthorized"],
    [402, "payment_required"],
  ] as const)("a %i (%s)", async (status, kind) => {
    sim.faults.nextCreate({ status, times: 5 });
    await expect(client().createImage({ prompt: "p" }, { idempotencyKey: "y" })).rejects.toMatchObject({
      kind,
      status,
      retryable: false,
    });
    expect(creates()).toHaveLength(1);
  });
});

describe("what is retried", () => {
  it("429, honouring Retry-After", async () => {
    sim.faults.nextCreate({ status: 429, retryAfterSeconds: 2 });
    await client().createImage({ prompt: "p" }, { idempotencyKey: "r1" });
    expect(creates()).toHaveLength(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(2000);
  });

  it("a Retry-After longer than the longest wait goes back to the caller", async () => {
    sim.faults.nextCreate({ status: 429, retryAfterSeconds: 600 });
    await expect(client().createImage({ prompt: "p" }, { idempotencyKey: "r2" })).rejects.toMatchObject({
      kind: "rate_limited",
      retryable: true,
      retryAfterMs: 600_000,
    });
    expect(creates()).toHaveLength(1);
  });

  it("5xx until the retries run out, with growing waits", async () => {
    sim.faults.nextCreate({ status: 502, times: 10 });
    const error = await client({ random: () => 1 })
      .createImage({ prompt: "p" }, { idempotencyKey: "r3" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaServiceError);
    expect(error).toMatchObject({ kind: "server", status: 502, retryable: true });
    expect(creates()).toHaveLength(4);
    expect(waits).toEqual([100, 200, 400]);
  });

  it("a failed lookup", async () => {
    const reg = await client().createImage({ prompt: "p" }, { idempotencyKey: "r4" });
    sim.faults.nextLookup({ status: 500, times: 2 });
    expect((await client().getTask(reg.id)).id).toBe(reg.id);
    expect(waits).toHaveLength(2);
  });

  it("a connection failure, reported as network after the retries", async () => {
    const closed = createMediaClient({
      baseUrl: "http://127.0.0.1:9",
      apiKey: "k",
      maxRetries: 2,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await expect(closed.createImage({ prompt: "p" }, { idempotencyKey: "n" })).rejects.toMatchObject({
      kind: "network",
      retryable: true,
    });
    expect(waits).toHaveLength(2);
  });
});

describe("timeouts", () => {
  const hanging: typeof fetch = (_input, init) =>
    new Promise((_resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
    });

  it("a lookup that times out is retried", async () => {
    let calls = 0;
    const c = client({
      timeoutMs: 20,
      maxRetries: 1,
      fetch: (input, init) => {
        calls++;
        return hanging(input, init);
      },
    });
    await expect(c.getTask("t")).rejects.toMatchObject({ kind: "timeout", retryable: true });
    expect(calls).toBe(2);
  });

  it("a create that times out is handed back (it may exist): retryable with the same key, not retried here", async () => {
    let calls = 0;
    const c = client({
      timeoutMs: 20,
      fetch: (input, init) => {
        calls++;
        return hanging(input, init);
      },
    });
    await expect(c.createVideo({ prompt: "p" }, { idempotencyKey: "t" })).rejects.toMatchObject({
      kind: "timeout",
      retryable: true,
    });
    expect(calls).toBe(1);
  });
});

describe("backoff", () => {
  it("doubles per attempt, stays within [step/2, step] and under the cap", () => {
    for (let attempt = 0; attempt < 12; attempt++) {
      const step = Math.min(30_000, 500 * 2 ** attempt);
      expect(backoffDelay(attempt, 500, 30_000, () => 0)).toBe(step / 2);
      expect(backoffDelay(attempt, 500, 30_000, () => 1)).toBe(step);
      const d = backoffDelay(attempt, 500, 30_000, Math.random);
      expect(d).toBeGreaterThanOrEqual(step / 2);
      expect(d).toBeLessThanOrEqual(step);
    }
  });
});

describe("what the client sends", () => {
  it("an Idempotency-Key on every create, JSON, and never the key in a log line", async () => {
    const lines: unknown[] = [];
    const c = client({ logger: { warn: (obj: unknown) => lines.push(obj) } as never });
    sim.faults.nextCreate({ status: 500 });
    await c.createImage({ prompt: "p" }, { idempotencyKey: "i1" });
    await c.editImage({ prompt: "p", image_urls: [`${sim.url}/healthz`] }, { idempotencyKey: "i2" });
    await c.createVideo({ prompt: "p" }, { idempotencyKey: "i3" });
    expect(creates().map((r) => r.headers["idempotency-key"])).toEqual(["i1", "i1", "i2", "i3"]);
    for (const r of creates()) expect(r.headers["content-type"]).toBe("application/json");
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain("retry-key");
  });

  it("refuses to create without an idempotency key", async () => {
    await expect(client().createImage({ prompt: "p" }, { idempotencyKey: "" })).rejects.toThrow(
      /idempotencyKey/,
    );
  });
});
