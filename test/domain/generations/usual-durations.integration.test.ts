import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Operation } from "../../../src/domain/generations/params";
import { latestCompletions, usualDurations } from "../../../src/domain/generations/usual-durations";
import { dubParts, generations } from "../../../src/platform/db/schema";
import { typicalDurations } from "../../../src/platform/media-service/catalog";
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

/** A minute of a dub's input, a second of a video: one unit of work. */
const unitLength: Partial<Record<Operation, Record<string, number>>> = {
  dub: { durationSeconds: 60 },
  video: { duration: 1 },
};

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
    patch: { charged?: number | null; late?: boolean; params?: Record<string, unknown> } = {},
  ): Promise<void> {
    await database.db.insert(generations).values(
      seconds.map((s) => {
        finishedAt += 60_000;
        return {
          id: randomUUID(),
          requestKey: randomUUID(),
          userId: 7,
          operation,
          // a length of one unit unless told: the time per unit is the time
          params: {
            operation,
            ...(model === undefined ? {} : { model }),
            ...unitLength[operation],
            ...patch.params,
          },
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

  test("a dub's estimate follows the history per minute of input, and what is left shrinks as its parts finish", async () => {
    const clock = handClock();
    const usual = usualDurations({ db: database.db, clock });
    // dubs of 12, 6 and 20 minutes at 3 s per minute of input, a slower 30 s one (a minute's fixed
    // costs) and one whose length is unknown (it says nothing of the pace)
    await completed("dub", undefined, [36], { params: { durationSeconds: 720 } });
    await completed("dub", undefined, [15], { params: { durationSeconds: 300 } });
    await completed("dub", undefined, [45], { params: { durationSeconds: 900 } });
    await completed("dub", undefined, [3], { params: { durationSeconds: undefined } });
    await completed("dub", undefined, [18], { params: { durationSeconds: 360 } });
    await completed("dub", undefined, [60], { params: { durationSeconds: 1200 } });
    await completed("dub", undefined, [9], { params: { durationSeconds: 30 } });
    usual.forgetUsual({ operation: "dub" });
    const fifty = { operation: "dub" as const, durationSeconds: 3000 };
    expect(await usual.usualDuration(fifty)).toMatchObject({ source: "history", seconds: 150 });
    expect(await usual.usualDuration({ operation: "dub", durationSeconds: 720 })).toMatchObject({
      seconds: 36,
    });

    const id = randomUUID();
    try {
      // the 50-minute one in 11 parts, confirmed 40 s ago, its parts sent 10 s after, none dubbed yet
      const createdAt = new Date(clock.now() - 40_000);
      const sentAt = new Date(createdAt.getTime() + 10_000);
      await database.db.insert(generations).values({
        id,
        requestKey: randomUUID(),
        userId: 7,
        operation: "dub",
        params: { ...fifty },
        price: 50,
        holdKey: randomUUID(),
        state: "pending",
        partsTotal: 11,
        partsDone: 0,
        createdAt,
      });
      const partMs = 3_000_000 / 11;
      await database.db.insert(dubParts).values(
        Array.from({ length: 11 }, (_, index) => ({
          generationId: id,
          index,
          startMs: Math.round(index * partMs),
          endMs: Math.round((index + 1) * partMs),
          state: "pending" as const,
          submittedAt: sentAt,
          updatedAt: sentAt,
        })),
      );
      const row = { id, operation: "dub" as const, params: { ...fifty }, createdAt, partsTotal: 11 };
      const leftNow = async () => (await usual.waitOf(row)).leftSeconds ?? Number.NaN;
      // on the history's time: its estimate less the time it has been
      expect(await leftNow()).toBeCloseTo(150 - 40, 5);

      // far behind it (a part every 30 s from the parts' start): once the history's estimate is past,
      // the parts dubbed tell the pace of the rest
      const lefts: number[] = [];
      for (let done = 1; done <= 10; done++) {
        const doneAt = sentAt.getTime() + 30_000 * done;
        await database.db
          .update(dubParts)
          .set({ state: "completed", updatedAt: new Date(doneAt) })
          .where(and(eq(dubParts.generationId, id), eq(dubParts.index, done - 1)));
        clock.advance(doneAt + 2_000 - clock.now());
        const left = await leftNow();
        const byHistory = 150 - (clock.now() - createdAt.getTime()) / 1000;
        expect(left).toBeCloseTo(byHistory > 0 ? byHistory : 30 * (11 - done) - 2, 0);
        lefts.push(left);
      }
      expect(lefts.filter((left) => left > 0)).toHaveLength(10);
      expect(lefts.slice(4)).toEqual([...lefts.slice(4)].sort((a, b) => b - a));
    } finally {
      // the tests run in any order: the other tests' dubs are of one minute each
      await database.db.delete(dubParts).where(eq(dubParts.generationId, id));
      await database.db
        .delete(generations)
        .where(
          and(
            eq(generations.operation, "dub"),
            sql`coalesce(${generations.params}->>'durationSeconds', '') <> '60'`,
          ),
        );
    }
  });

  test("a video's estimate follows the history per second ordered", async () => {
    const clock = handClock();
    const usual = usualDurations({ db: database.db, clock });
    await completed("video", "video-b-2-5", [40, 50], { params: { duration: 10 } });
    await completed("video", "video-b-2-5", [20], { params: { duration: 4 } });
    const subject = { operation: "video" as const, model: "video-b-2-5", duration: 30 };
    expect(await usual.usualDuration(subject)).toMatchObject({ source: "history", seconds: 150 });
    const wait = await usual.waitOf({
      operation: "video",
      params: { operation: "video", model: "video-b-2-5", duration: 30 },
      createdAt: new Date(clock.now() - 100_000),
    });
    expect(wait.leftSeconds).toBeCloseTo(50, 5);
    // without a length, no estimate of what is left: only how long such a request usually takes
    const unsized = await usual.waitOf({
      operation: "video",
      params: { operation: "video", model: "video-b-2-5" },
      createdAt: new Date(clock.now()),
    });
    expect(unsized.leftSeconds).toBeUndefined();
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
