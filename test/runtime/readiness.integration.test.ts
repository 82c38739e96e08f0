import { randomBytes } from "node:crypto";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createMetrics } from "../../src/platform/metrics/metrics";
import { healthRoutes } from "../../src/runtime/http/health";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { deleteRedisKeys, redisUrl } from "../support/harness";

/** /readyz (and msb_ready) on the real Postgres and Redis: a queue far behind makes the process not ready. */
describe("readiness and queue lag", () => {
  const prefix = `msb-ready-${randomBytes(6).toString("hex")}`;
  let database: TestDatabase;
  let redis: Redis;
  let queue: Queue;

  beforeAll(async () => {
    database = await createTestDatabase({ max: 2 });
    redis = new Redis(redisUrl);
    queue = new Queue("submit", { connection: { url: redisUrl }, prefix });
  });
  afterAll(async () => {
    await queue?.close();
    redis?.disconnect();
    await deleteRedisKeys(prefix);
    await database?.drop();
  });

  const readyz = async () => {
    const metrics = createMetrics();
    const app = healthRoutes({ db: database.db, redis, queues: [queue], metrics, maxQueueLag: 3 });
    const res = await app.request("/readyz");
    return {
      status: res.status,
      body: (await res.json()) as { ready: boolean; checks: Record<string, string> },
      // what Prometheus reads at the same moment
      gauge: (await metrics.registry.getSingleMetricAsString("msb_ready")).split("\n").at(-1),
    };
  };

  test("ready up to the lag limit; one job more waiting makes it 503, naming the queue and its count; msb_ready says the same", async () => {
    await queue.addBulk([1, 2, 3].map((n) => ({ name: "submit", data: { n } })));
    expect(await readyz()).toMatchObject({
      status: 200,
      body: { ready: true, checks: { postgres: "ok", redis: "ok", queue_submit: "3" } },
      gauge: "msb_ready 1",
    });
    await queue.add("submit", { n: 4 });
    expect(await readyz()).toMatchObject({
      status: 503,
      body: { ready: false, checks: { postgres: "ok", redis: "ok", queue_submit: "4" } },
      gauge: "msb_ready 0",
    });
    // the queue catches up: ready again
    await queue.drain();
    expect(await readyz()).toMatchObject({
      status: 200,
      body: { ready: true, checks: { queue_submit: "0" } },
      gauge: "msb_ready 1",
    });
  });
});
