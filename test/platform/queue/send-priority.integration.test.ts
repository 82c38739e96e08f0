import { randomBytes, randomUUID } from "node:crypto";
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { deliverJob } from "../../../src/domain/generations/deliver/deliver-step";
import { generationQueues } from "../../../src/domain/generations/queues";
import { stageQueues } from "../../../src/domain/generations/stages";
import { createSyncHints } from "../../../src/domain/generations/sync/sync-hints";
import { broadcastQueue, copyJob, tickJob } from "../../../src/features/broadcasts/jobs";
import { systemClock } from "../../../src/platform/lib/clock";
import { createQueues, type Queues, redisConnection } from "../../../src/platform/queue/queues";
import { redisUrl } from "../../support/harness";

/**
 * One queue carries every Telegram send, under one limiter: a result queued
 * behind a broadcast's copies still goes out before them, a broadcast's tick
 * before its copies, and a copy queued twice is one job.
 */
describe("results first in the one send queue, on real Redis", () => {
  const target = { url: redisUrl, prefix: `msb-sends-${randomBytes(4).toString("hex")}` };
  let redis: Redis;
  let queues: Queues;

  beforeAll(() => {
    redis = new Redis(redisUrl);
    queues = createQueues(target, stageQueues);
  });
  afterAll(async () => {
    await queues.close();
    const keys = await redis.keys(`${target.prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  test("a result queued after 20 copies is sent first, then the tick, then the copies", async () => {
    const bq = broadcastQueue(queues, systemClock);
    const gq = generationQueues(queues, systemClock, createSyncHints(redis, target.prefix));
    const bid = randomUUID();
    const users = Array.from({ length: 20 }, (_, i) => 1000 + i);
    await bq.copies(bid, users);
    await bq.copies(bid, users.slice(0, 5));
    await bq.tick(bid);
    const gid = randomUUID();
    await gq.deliver(gid);
    expect(await bq.outstanding()).toBe(21);

    const order: string[] = [];
    const worker = new Worker(
      queues.of("deliver").name,
      async (job) => {
        order.push(job.name === deliverJob.name ? "result" : job.name);
      },
      {
        connection: redisConnection(target),
        prefix: target.prefix,
        concurrency: 1,
        limiter: { max: 100, duration: 1000 },
      },
    );
    try {
      for (let i = 0; i < 200 && order.length < 22; i++) await new Promise((r) => setTimeout(r, 25));
    } finally {
      await worker.close();
    }
    expect(order).toEqual(["result", tickJob.name, ...users.map(() => copyJob.name)]);
  });

  test("a copy whose job was left in no list (a partial flush) is queued again, not swallowed", async () => {
    const bq = broadcastQueue(queues, systemClock);
    const bid = randomUUID();
    await bq.copies(bid, [7, 8]);
    const jobId = `bc-${bid}-7`;
    // the queue's own key for waiting prioritized jobs loses it; the job's hash stays
    await redis.zrem(`${target.prefix}:deliver:prioritized`, jobId);
    expect(await (await queues.of("deliver").getJob(jobId))?.getState()).toBe("unknown");
    await bq.copies(bid, [7, 8]);
    expect(await (await queues.of("deliver").getJob(jobId))?.getState()).toBe("prioritized");
    // the other copy, still queued, is still one job
    const queued = (await queues.of("deliver").getJobs(["prioritized"])).filter((j) =>
      j.id?.startsWith(`bc-${bid}`),
    );
    expect(queued.map((j) => j.id).sort()).toEqual([`bc-${bid}-7`, `bc-${bid}-8`]);
    // the queue is shared with the other test, which counts what waits in it
    for (const j of queued) await j.remove();
  });
});
