import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generations } from "../../../src/db/schema";
import type { Operation } from "../../../src/generations/params";
import { latestCompletions, usualDurations } from "../../../src/generations/usual-durations";
import { typicalDurations } from "../../../src/media/catalog";
import { createTestDatabase, type TestDatabase } from "../../support/db";

/** A clock the test moves by hand: the estimates are reused for a while, then read again. */
function handClock(start = Date.parse("2026-11-01T12:00:00Z")) {
  let now = start;
  return {
    now: () => now,
    sleep: async () => {},
    toReal: (ms: number) => ms,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe("how long a request usually takes: the median of the bot's own latest completions", () => {
  let database: TestDatabase;
  let finishedAt = Date.parse("2026-10-01T00:00:00Z");

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.drop());

  /** Completed generations of this kind that took these many seconds from Confirm to their result, in this order. */
  async function completed(
    operation: Operation,
    model: string | undefined,
    seconds: readonly number[],
    patch: { charged?: number | null; late?: boolean } = {},
  ): Promise<void> {
    await database.db.insert(generations).values(
      seconds.map((s) => {
        finishedAt += 60_000;
        return {
          id: randomUUID(),
          requestKey: randomUUID(),
          userId: 7,
          operation,
          params: model === undefined ? { operation } : { operation, model },
          price: 5,
          holdKey: randomUUID(),
          state: "delivered" as const,
          charged: patch.charged === undefined ? 5 : patch.charged,
          late: patch.late ?? false,
          createdAt: new Date(finishedAt - s * 1000),
          finishedAt: new Date(finishedAt),
        };
      }),
    );
  }

  test("the median follows the recorded durations, over the latest 50 only", async () => {
    const clock = handClock();
    const usual = usualDurations({ db: database.db, clock });
    await completed("image", "alpha-speed", [4, 6, 30]);
    expect(await usual.usualDuration({ operation: "image", model: "alpha-speed" })).toEqual({
      source: "history",
      seconds: 6,
      samples: 3,
    });
    // slower ones come in: the median moves with them (once the estimate is read again)
    await completed("image", "alpha-speed", [40, 50]);
    clock.advance(31_000);
    expect(await usual.usualDuration({ operation: "image", model: "alpha-speed" })).toMatchObject({
      seconds: 30,
      samples: 5,
    });
    // 50 newer ones of 12 s push every older one out of the window
    await completed(
      "image",
      "alpha-speed",
      Array.from({ length: 50 }, () => 12),
    );
    clock.advance(31_000);
    expect(await usual.usualDuration({ operation: "image", model: "alpha-speed" })).toEqual({
      source: "history",
      seconds: 12,
      samples: 50,
    });
  });

  test("only that operation and model count, and only results charged in time", async () => {
    const usual = usualDurations({ db: database.db, clock: handClock() });
    await completed("image", "nano-pro", [100]);
    await completed("edit", "nano-lite", [20]);
    // a late result (delivered free) and one never charged say nothing of the usual time
    await completed("image", "nano-lite", [900], { late: true });
    await completed("image", "nano-lite", [800], { charged: null });
    await completed("image", "nano-lite", [10, 14]);
    expect(await usual.usualDuration({ operation: "image", model: "nano-lite" })).toEqual({
      source: "history",
      seconds: 12,
      samples: 2,
    });
    // a dub names no model: all dubs together
    await completed("dub", undefined, [70, 90, 200]);
    expect(await usual.usualDuration({ operation: "dub" })).toMatchObject({ seconds: 90, samples: 3 });
  });

  test("a model with no history gets the service document's typical duration; images, which it gives none, get none", async () => {
    const usual = usualDurations({ db: database.db, clock: handClock() });
    expect(typicalDurations.video).toEqual({ fromSeconds: 30 });
    expect(typicalDurations.dub).toEqual({ fromSeconds: 60 });
    expect(await usual.usualDuration({ operation: "video", model: "video-b-2-mini" })).toEqual({
      source: "document",
      fromSeconds: 30,
    });
    expect(await usual.usualDuration({ operation: "image", model: "gamma-5-pro" })).toBeUndefined();
    // another video model's history is not this one's
    await completed("video", "video-c-3", [45]);
    expect(await usual.usualDuration({ operation: "video", model: "video-b-2-mini" })).toEqual({
      source: "document",
      fromSeconds: 30,
    });
    expect(await usual.usualDuration({ operation: "video", model: "video-c-3" })).toMatchObject({
      source: "history",
      seconds: 45,
    });
  });

  test("an estimate is reused briefly; a completion this process saw reads it again at once", async () => {
    const clock = handClock();
    const usual = usualDurations({ db: database.db, clock });
    const subject = { operation: "video" as const, model: "video-d-imagine" };
    expect(await usual.usualDuration(subject)).toMatchObject({ source: "document" });
    await completed("video", "video-d-imagine", [80]);
    expect(await usual.usualDuration(subject)).toMatchObject({ source: "document" });
    usual.forgetUsual(subject);
    expect(await usual.usualDuration(subject)).toMatchObject({ source: "history", seconds: 80 });
  });

  test("a generation's wait: its kind's usual duration and the time since it was confirmed", async () => {
    const clock = handClock();
    const usual = usualDurations({ db: database.db, clock });
    const wait = await usual.waitOf({
      operation: "video",
      params: { operation: "video", model: "video-e-3.1" },
      createdAt: new Date(clock.now() - 95_000),
    });
    expect(wait).toEqual({ usual: { source: "document", fromSeconds: 30 }, elapsedSeconds: 95 });
  });

  test("the query walks its index, not the table", async () => {
    const { sql, params } = database.db
      .select()
      .from(latestCompletions(database.db, { operation: "image", model: "alpha-speed" }))
      .toSQL();
    const client = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const plan = await client.begin(async (tx) => {
        await tx.unsafe("set local enable_seqscan = off");
        return await tx.unsafe(`explain ${sql}`, params as never[]);
      });
      const text = plan.map((row) => Object.values(row).join(" ")).join("\n");
      expect(text).toContain("generations_usual_duration_idx");
      expect(text).not.toMatch(/Sort/);
    } finally {
      await client.end();
    }
  });
});
