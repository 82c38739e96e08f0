import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signGid } from "../../../src/platform/storage/signed-tokens";
import {
  eventually,
  generationIn,
  type Harness,
  requestImage,
  startedUser,
  startHarness,
} from "../../support/harness";

/** What reaches the admins (ADMIN_IDS is "1" in the harness) without anyone asking. */
describe("alerts to the admins", () => {
  let h: Harness;
  const logs: string[] = [];
  const toAdmin = (pattern: RegExp) =>
    h.tg
      .callsOf("sendMessage")
      .filter((c) => Number(c.params.chat_id) === 1 && pattern.test(String(c.params.text)));

  beforeAll(async () => {
    h = await startHarness({
      logs,
      env: { LOG_LEVEL: "error" },
      timing: { operatorChecksEveryMs: 20_000, alertWindowMs: 3_600_000 },
      policy: { backlogLimit: 2 },
    });
  });
  afterAll(async () => h?.stop());

  test("the periodic audit finds a corrupted balance: the admins are told once per window", async () => {
    const user = await startedUser(h);
    await h.db.db.execute(
      sql`update credit_accounts set available = available + 5 where user_id = ${user.id}`,
    );
    await eventually(async () => (toAdmin(/ledger audit found/).length > 0 ? true : undefined));
    // more checks run (every 200 ms of real time) within the window, each logging what it found.
    // Checks never overlap: two more lines mean a whole check, its alert call included, ran after
    // the message went out; still one message
    const audits = () => logs.filter((line) => line.includes("ledger audit found violations")).length;
    const seen = audits();
    await eventually(async () => (audits() >= seen + 2 ? true : undefined));
    expect(toAdmin(/ledger audit found/)).toHaveLength(1);
    expect(String(toAdmin(/ledger audit found/)[0]?.params.text)).toContain("npm run audit");
    await h.db.db.execute(
      sql`update credit_accounts set available = available - 5 where user_id = ${user.id}`,
    );
  });

  test("a result Telegram refuses for good is refunded and the admins hear of it", async () => {
    const user = await startedUser(h);
    h.tg.failNext("sendPhoto", {
      code: 400,
      description: "Bad Request: wrong file identifier/HTTP URL specified",
    });
    h.tg.failNext("sendDocument", {
      code: 400,
      description: "Bad Request: wrong file identifier/HTTP URL specified",
    });
    await requestImage(user, "a photo Telegram will refuse");
    const failed = await generationIn(h, user.id, "failed");
    expect(failed.error?.reason).toBe("undeliverable");
    await eventually(async () => (toAdmin(new RegExp(failed.id)).length > 0 ? true : undefined));
    expect(String(toAdmin(new RegExp(failed.id))[0]?.params.text)).toContain(
      "could not be delivered and was refunded",
    );
  });

  test("a second task the service ran for one request is recorded as an orphan and the admins are told", async () => {
    const user = await startedUser(h);
    await requestImage(user, "a harbour at dawn");
    const g = await generationIn(h, user.id, "delivered");
    expect(toAdmin(/no request can take/)).toHaveLength(0);
    // the service ran the request twice: the second task carries the same signed gid, and its webhook comes
    const duplicate = await h.runtime.media.createImage(
      { prompt: "a harbour at dawn", metadata: { gid: g.id, sig: signGid(h.config.signingSecret, g.id) } },
      { idempotencyKey: `duplicate-${g.id}` },
    );
    await eventually(async () => (toAdmin(/no request can take/).length > 0 ? true : undefined));
    expect(String(toAdmin(/no request can take/)[0]?.params.text)).toContain(duplicate.id);
    expect((await h.runtime.ledger.account(user.id))?.held).toBe(0);
  });

  test("a queue with more jobs waiting than the limit reaches the admins", async () => {
    const queue = h.runtime.queues.of("sync");
    await queue.pause();
    try {
      for (let i = 0; i < 3; i++)
        await queue.add("sync", { v: 1, gid: randomUUID(), polls: 0 }, { jobId: randomUUID() });
      await eventually(async () => (toAdmin(/jobs waiting/).length > 0 ? true : undefined));
      expect(String(toAdmin(/jobs waiting/)[0]?.params.text)).toMatch(
        /sync queue has 3 jobs waiting \(limit 2\)/,
      );
    } finally {
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.resume();
    }
  });
});
