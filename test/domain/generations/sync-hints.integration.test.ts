import { randomBytes, randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generationQueues } from "../../../src/domain/generations/queues";
import { stageQueues } from "../../../src/domain/generations/stages";
import { createSyncHints, type SyncHints } from "../../../src/domain/generations/sync/sync-hints";
import { systemClock } from "../../../src/platform/lib/clock";
import { createQueues, type Queues } from "../../../src/platform/queue/queues";
import { redisUrl } from "../../support/harness";

/** A webhook never adds a second sync job: it promotes the waiting one, or leaves a hint for the running one. */
describe("sync jobs and webhook hints on real Redis", () => {
  const prefix = `msb-hints-${randomBytes(4).toString("hex")}`;
  let redis: Redis;
  let queues: Queues;
  let hints: SyncHints;

  beforeAll(() => {
    redis = new Redis(redisUrl);
    queues = createQueues({ url: redisUrl, prefix }, stageQueues);
    hints = createSyncHints(redis, prefix);
  });
  afterAll(async () => {
    await queues.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  test("a webhook for a generation whose poll is scheduled brings that poll forward, once", async () => {
    const gq = generationQueues(queues, systemClock, hints);
    const id = randomUUID();
    await gq.sync(id, { delayMs: 60_000 });
    expect(await (await queues.of("sync").getJob(id))?.isDelayed()).toBe(true);
    await gq.sync(id, { now: true, adopt: "task::1" });
    const job = await queues.of("sync").getJob(id);
    expect(await job?.isDelayed()).toBe(false);
    // one job for this generation (counted by its data, so other tests' jobs do not count)
    const jobs = await queues.of("sync").getJobs(["wait", "delayed", "prioritized"]);
    expect(jobs.filter((j) => j.data.gid === id)).toHaveLength(1);
    expect(await hints.take(id)).toEqual({ adopt: "task::1" });
    expect(await hints.take(id)).toBeNull();
  });

  test("a webhook for a generation without a sync job adds one carrying the task to adopt", async () => {
    const gq = generationQueues(queues, systemClock, hints);
    const id = randomUUID();
    await gq.sync(id, { now: true, adopt: "task-2" });
    expect((await queues.of("sync").getJob(id))?.data).toMatchObject({ gid: id, adopt: "task-2" });
    expect(await hints.take(id)).toBeNull();
  });
});
