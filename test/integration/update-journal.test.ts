import { eq } from "drizzle-orm";
import { Bot } from "grammy";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotContext } from "../../src/bot/context";
import { createUpdateJournal, journalUpdates } from "../../src/bot/update-journal";
import { processedUpdates } from "../../src/db/schema";
import { testBotInfo } from "../support/bot-info";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { captureLogs } from "../support/log-capture";

let nextId = 1_000;
const update = (): Update => ({
  update_id: nextId++,
  message: {
    message_id: 1,
    date: 0,
    chat: { id: 1, type: "private", first_name: "A" },
    from: { id: 1, is_bot: false, first_name: "A" },
    text: "/start",
  },
});

describe("the update journal", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ max: 4 });
  });
  afterAll(async () => database?.drop());

  const row = async (id: number) =>
    (await database.db.select().from(processedUpdates).where(eq(processedUpdates.updateId, id)))[0];

  test("a recorded update is claimed by one handler at a time, and dropped once done", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 60_000 });
    const u = update();
    await journal.record([u]);
    await journal.record([u]);
    expect((await row(u.update_id))?.state).toBe("pending");
    const claims = await Promise.all([journal.claim(u), journal.claim(u), journal.claim(u)]);
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
    const c = claims.find((x) => x !== null)!;
    await journal.finish(c);
    expect(await row(u.update_id)).toMatchObject({ state: "done", payload: null, attempts: 1 });
    expect(await journal.claim(u)).toBeNull();
  });

  test("what a dead handler left (an expired lease, or recorded and never claimed) is handed out again", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 200 });
    const leased = update();
    const neverClaimed = update();
    await journal.record([leased, neverClaimed]);
    expect(await journal.claim(leased)).not.toBeNull();
    // the handler dies: no finish, no renewal
    expect(await journal.claim(leased)).toBeNull();
    const deadline = Date.now() + 5_000;
    let left: Update[] = [];
    while (Date.now() < deadline) {
      left = (await journal.leftover()).filter(
        (u) => u.update_id === leased.update_id || u.update_id === neverClaimed.update_id,
      );
      if (left.length === 2) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(left).toEqual([leased, neverClaimed]);
    const again = await journal.claim(leased);
    expect(again?.attempts).toBe(2);
  });

  test("a released claim can be taken again at once; attempts are counted", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 60_000 });
    const u = update();
    const first = await journal.claim(u);
    await journal.release(first!);
    const second = await journal.claim(u);
    expect(second?.attempts).toBe(2);
    // the first handler's late finish does not touch the second's claim
    await journal.finish(first!);
    expect((await row(u.update_id))?.state).toBe("pending");
    await journal.finish(second!);
    expect((await row(u.update_id))?.state).toBe("done");
  });

  test("an update that keeps failing past the error boundary is given up after 5 attempts, with a warning", async () => {
    const journal = createUpdateJournal(database.db, { leaseMs: 60_000, maxAttempts: 5 });
    const { logger, lines } = captureLogs();
    const bot = new Bot<BotContext>("123456:test-token-not-real-aaaaaaaaaaaa", { botInfo: testBotInfo });
    let runs = 0;
    bot.use((ctx, next) => {
      ctx.logger = logger;
      return next();
    });
    bot.use(journalUpdates(journal));
    bot.use(() => {
      runs += 1;
      throw new Error("the database is down");
    });
    const u = update();
    for (let i = 0; i < 7; i++) await bot.handleUpdate(u).catch(() => undefined);
    expect(runs).toBe(5);
    expect((await row(u.update_id))?.state).toBe("abandoned");
    expect(
      lines.filter((l) => l.msg === "update given up after repeated failures" && l.level === 40),
    ).toHaveLength(1);
    expect((await journal.leftover()).some((x) => x.update_id === u.update_id)).toBe(false);
  });
});
