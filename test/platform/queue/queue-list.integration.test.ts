import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { stageQueues, stages } from "../../../src/domain/generations/stages";
import { copyJob, tickJob } from "../../../src/features/broadcasts/jobs";
import { createQueues } from "../../../src/platform/queue/queues";
import { redisUrl } from "../../support/harness";

/** The queues come from the stages' list: `platform/queue/` names none. */
describe("the queues the stages declare", () => {
  test("one BullMQ queue per declared name, in the stages' order; an undeclared one is refused by name", async () => {
    const queues = createQueues({ url: redisUrl, prefix: `msb-qlist-${randomBytes(4).toString("hex")}` }, [
      ...stageQueues,
      stageQueues[0] ?? { name: "none", concurrency: 1 },
    ]);
    try {
      expect(queues.all.map((q) => q.name)).toEqual(stages.map((s) => s.name));
      // a feature's jobs ride a stage's queue: the broadcasts' copies and ticks wait behind the results
      expect([copyJob, tickJob].map((kind) => queues.of(kind.queue.name).name)).toEqual([
        "deliver",
        "deliver",
      ]);
      expect(() => queues.of("thumbnails")).toThrow(
        "no queue thumbnails: a job's queue must be one a stage declares",
      );
    } finally {
      await queues.close();
    }
  });
});
