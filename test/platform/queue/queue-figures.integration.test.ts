import { randomBytes } from "node:crypto";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLogger } from "../../../src/platform/lib/logger";
import { queueDepths, queueLags } from "../../../src/platform/queue/queue-figures";
import { redisConnection } from "../../../src/platform/queue/queues";
import { startWorkers } from "../../../src/platform/queue/workers";
import { deleteRedisKeys, eventually, redisUrl } from "../../support/harness";

/** What /metrics reads from the queues (depth and lag), and the outcomes the workers count, on real Redis. */
describe("queue figures for the metrics", () => {
  const target = { url: redisUrl, prefix: `msb-figures-${randomBytes(4).toString("hex")}` };
  let redis: Redis;
  let queue: Queue;
  let submit: Queue;

  beforeAll(() => {
    redis = new Redis(redisUrl);
    queue = new Queue("sync", { connection: redisConnection(target), prefix: target.prefix });
    submit = new Queue("submit", { connection: redisConnection(target), prefix: target.prefix });
  });
  afterAll(async () => {
    await queue.close();
    await submit.close();
    await deleteRedisKeys(target.prefix);
    await redis.quit();
  });

  test("the lag is the oldest waiting job's; delayed and prioritized jobs are counted, not waited for", async () => {
    expect(await queueLags([queue])).toEqual({ sync: 0 });
    const first = Date.now();
    await queue.add("a", {}, { jobId: "oldest" });
    await new Promise((r) => setTimeout(r, 300));
    await queue.add("b", {}, { jobId: "newer" });
    await queue.add("c", {}, { jobId: "later", delay: 60_000 });
    await queue.add("d", {}, { jobId: "behind", priority: 10 });
    const lag = (await queueLags([queue], first + 5_000)).sync;
    expect(lag).toBeGreaterThan(4.9);
    expect(lag).toBeLessThanOrEqual(5);
    expect(await queueDepths([queue])).toEqual({
      sync: { wait: 2, prioritized: 1, active: 0, delayed: 1, failed: 0 },
    });
  });

  test("a job's failed attempts are counted as errors, its last one as gave-up", async () => {
    const outcomes: string[] = [];
    const workers = startWorkers(
      [
        {
          queue: { name: "submit", concurrency: 1 },
          name: "doomed",
          label: "doomed-label",
          handle: async () => {
            throw new Error("always");
          },
        },
      ],
      {
        redis: target,
        logger: createLogger("silent"),
        onOutcome: (label, outcome) => outcomes.push(`${label} ${outcome}`),
      },
    );
    try {
      await submit.add("doomed", {}, { attempts: 3, backoff: { type: "fixed", delay: 10 } });
      await eventually(async () => (outcomes.length >= 3 ? true : undefined), 10_000);
      expect(outcomes).toEqual(["doomed-label error", "doomed-label error", "doomed-label gave-up"]);
    } finally {
      await workers.close();
    }
  });
});
