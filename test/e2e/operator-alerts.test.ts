import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signGid } from "../../src/storage/signed-tokens";
import {
  eventually,
  generationIn,
  type Harness,
  requestImage,
  startedUser,
  startHarness,
} from "../support/harness";

/** The alerts an operator gets for an orphan task and a backlog (ADMIN_IDS is "1" in the harness). */
describe("operator alerts: orphans and backlog", () => {
  let h: Harness;
  const toAdmin = (pattern: RegExp) =>
    h.tg
      .callsOf("sendMessage")
      .filter((c) => Number(c.params.chat_id) === 1 && pattern.test(String(c.params.text)));

  beforeAll(async () => {
    h = await startHarness({
      timing: { operatorChecksEveryMs: 20_000, alertWindowMs: 3_600_000 },
      policy: { backlogLimit: 2 },
    });
  });
  afterAll(async () => h?.stop());

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
    const queue = h.runtime.queues.sync;
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
