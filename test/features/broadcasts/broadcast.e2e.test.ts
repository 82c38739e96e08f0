import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestUser } from "../../../sandbox/playground/telegram";
import { broadcastRecipients, broadcasts, users } from "../../../src/platform/db/schema";
import { translate } from "../../../src/platform/i18n/i18n";
import { deleteRedisKeys, eventually, type Harness, startedUser, startHarness } from "../../support/harness";

/** The first user a fresh stand-in makes has this id: the admin of these tests. */
const adminId = 5_000_000_001;

const stopped = (sent: number, failed: number, blocked: number, remaining: number, total: number) =>
  translate("en", "bc-cancelled", { sent, failed, blocked, remaining, total });
const done = (sent: number, failed: number, blocked: number, total: number) =>
  translate("en", "bc-done", { sent, failed, blocked, total });

/** Runs /broadcast through to Send: the message, Preview (albums), an audience, confirm. */
async function broadcastFrom(admin: TestUser, send: () => Promise<unknown>, audience: RegExp = /^Everyone/) {
  await admin.send("/broadcast");
  await admin.waitFor((m) => m.text === translate("en", "bc-ask"));
  await send();
  const pick = await admin.waitFor((m) => m.text?.endsWith(translate("en", "bc-pick-audience")));
  await admin.press(audience, { message: pick });
  const confirm = await admin.waitFor((m) =>
    m.reply_markup?.inline_keyboard.flat().some((b) => b.text.startsWith("✅")),
  );
  await admin.press(/^✅/, { message: confirm });
  return confirm;
}

describe("/broadcast end to end (in process)", () => {
  let h: Harness;
  let admin: TestUser;

  beforeAll(async () => {
    h = await startHarness({
      env: { ADMIN_IDS: String(adminId), TELEGRAM_SENDS_PER_SECOND: "20" },
      // the reconciler every second of real time (the clock runs 100 times faster)
      timing: { broadcastTickMs: 300, broadcastClaimStaleMs: 2_000, reconcileEveryMs: 100_000 },
    });
    admin = await startedUser(h);
    expect(admin.id).toBe(adminId);
  });
  afterAll(async () => {
    await h?.stop();
  });

  test("a formatted text reaches every user once, the preview first, and the progress ends with the totals", {
    timeout: 60_000,
  }, async () => {
    const newUsers = [await startedUser(h), await startedUser(h), await startedUser(h, "fa")];
    const text = "Big news: *video* is here";
    const confirm = await broadcastFrom(admin, () =>
      admin.send(text, { entities: [{ type: "bold", offset: 10, length: 7 }] }),
    );
    // everyone the bot knows: these users, the admin, and those of tests that ran before
    const total = await h.db.db.$count(users);
    expect(total).toBeGreaterThanOrEqual(newUsers.length + 1);
    const progress = await admin.waitFor(
      (m) => m.message_id === confirm.message_id && m.text === done(total, 0, 0, total),
      { timeoutMs: 20_000 },
    );
    expect(progress.reply_markup?.inline_keyboard.flat() ?? []).toEqual([]);
    for (const user of newUsers) {
      const got = user.messages().filter((m) => m.text === text);
      expect(got).toHaveLength(1);
      expect(got[0]!.entities).toEqual([{ type: "bold", offset: 10, length: 7 }]);
    }
    const [row] = await h.db.db
      .select()
      .from(broadcasts)
      .where(eq(broadcasts.progressMessageId, confirm.message_id));
    expect(row?.state).toBe("done");
    expect(row?.total).toBe(total);
    // Telegram's copies of it: the preview to the admin first, then one per recipient, the admin among them
    const copies = h.tg
      .callsOf("copyMessage")
      .filter((c) => c.response.ok && c.params.message_id === row?.sourceMessageIds[0])
      .map((c) => Number(c.params.chat_id));
    expect(copies[0]).toBe(admin.chatId);
    const recipients = copies.slice(1);
    expect(new Set(recipients).size).toBe(total);
    expect(recipients).toHaveLength(total);
    for (const user of [admin, ...newUsers]) expect(recipients).toContain(user.chatId);
  });

  /** Every copy the deliver queue had run: none waits, none is under way. */
  async function copiesDone() {
    await eventually(async () => {
      const left = await h.runtime.queues
        .of("deliver")
        .getJobCounts("waiting", "prioritized", "active", "delayed");
      return Object.values(left).every((n) => n === 0) ? true : undefined;
    });
  }

  /** Sends `text` to /broadcast and, once its preview is shown, holds every copy at Telegram. */
  async function heldBroadcast(text: string) {
    let gate: ReturnType<Harness["tg"]["hold"]> | undefined;
    const confirm = await broadcastFrom(admin, async () => {
      await admin.send(text);
      await admin.waitFor((m) => m.text === text);
      gate = h.tg.hold("copyMessage");
    });
    // a copy is under way (claimed, at Telegram), the rest wait behind it
    await eventually(async () => (gate!.held() > 0 ? true : undefined));
    return { confirm, gate: gate! };
  }

  /** The broadcast confirmed on `confirm`, read back. */
  async function broadcastOf(confirmId: number) {
    return eventually(async () => {
      const [row] = await h.db.db
        .select()
        .from(broadcasts)
        .where(eq(broadcasts.progressMessageId, confirmId));
      return row;
    });
  }

  test("an album is previewed and copied as one album", { timeout: 60_000 }, async () => {
    const user = await startedUser(h);
    const confirm = await broadcastFrom(
      admin,
      async () => {
        await admin.sendAlbum([{ caption: "New looks" }, {}]);
        const album = await admin.waitFor((m) => m.text === translate("en", "bc-album", { count: 2 }));
        await admin.press(/Preview/, { message: album });
      },
      /^Active in the last 7 days/,
    );
    const row = await broadcastOf(confirm.message_id);
    await admin.waitFor(
      (m) => m.message_id === confirm.message_id && m.text === done(row.total, 0, 0, row.total),
      {
        timeoutMs: 20_000,
      },
    );
    const photos = user.messages().filter((m) => m.photo);
    expect(photos).toHaveLength(2);
    expect(photos[0]!.caption).toBe("New looks");
    expect(photos[0]!.media_group_id).toBeDefined();
    expect(photos[1]!.media_group_id).toBe(photos[0]!.media_group_id);
    expect(row.sourceMessageIds).toHaveLength(2);
  });

  test("the stop button stops it; the progress says what was sent and what was not", {
    timeout: 60_000,
  }, async () => {
    const many = await Promise.all(Array.from({ length: 40 }, () => startedUser(h)));
    const text = "A message that will be stopped";
    const { confirm, gate } = await heldBroadcast(text);
    const running = await admin.waitFor(
      (m) => m.message_id === confirm.message_id && m.text?.startsWith("📣 Broadcast in progress"),
    );
    await admin.press(/Stop/, { message: running });
    const final = await admin.waitFor(
      (m) => m.message_id === confirm.message_id && m.text?.startsWith("📣 Broadcast stopped"),
    );
    const row = await broadcastOf(confirm.message_id);
    expect(row.state).toBe("cancelled");
    // the copies under way at the stop are made; every job left runs, and none makes another
    gate.release();
    await copiesDone();
    const copied = h.tg
      .callsOf("copyMessage")
      .filter((c) => c.response.ok && c.params.message_id === row.sourceMessageIds[0])
      .map((c) => Number(c.params.chat_id));
    // the first copy is the admin's preview
    const sent = copied.length - 1;
    expect(new Set(copied.slice(1)).size).toBe(sent);
    expect(final.text).toBe(stopped(sent, 0, 0, row.total - sent, row.total));
    // who got it is who the rows say was sent to; the others wait, and got nothing
    const rows = await h.db.db
      .select({ userId: broadcastRecipients.userId, state: broadcastRecipients.state })
      .from(broadcastRecipients)
      .where(eq(broadcastRecipients.broadcastId, row.id));
    expect(rows.filter((r) => r.state === "sent")).toHaveLength(sent);
    expect(rows.filter((r) => r.state === "pending")).toHaveLength(row.total - sent);
    const got = many.filter((u) => u.messages().some((m) => m.text === text));
    expect(got.length).toBeLessThan(many.length);
    const pending = new Set(rows.filter((r) => r.state === "pending").map((r) => r.userId));
    for (const u of many) expect(u.messages().some((m) => m.text === text)).toBe(!pending.has(u.id));
  });

  test("/broadcast_cancel stops a running broadcast; with none running it says so", {
    timeout: 60_000,
  }, async () => {
    await Promise.all(Array.from({ length: 30 }, () => startedUser(h)));
    const { confirm, gate } = await heldBroadcast("Stopped by command");
    await admin.send("/broadcast_cancel");
    await admin.waitFor((m) => m.text === translate("en", "bc-stopping", { count: 1 }));
    await admin.waitFor(
      (m) => m.message_id === confirm.message_id && m.text?.startsWith("📣 Broadcast stopped"),
    );
    gate.release();
    expect((await broadcastOf(confirm.message_id)).state).toBe("cancelled");
    const sent = await admin.send("/broadcast_cancel");
    await admin.waitFor((m) => m.text === translate("en", "bc-stop-none"), { after: sent });
  });

  test("a copy refused with a 403 (the user blocked the bot, unnoticed) marks that user blocked", {
    timeout: 60_000,
  }, async () => {
    const gone = await startedUser(h);
    await gone.block({ unnoticed: true });
    const blockedAtOf = async () =>
      (await h.db.db.select({ at: users.blockedAt }).from(users).where(eq(users.id, gone.id)))[0]?.at;
    expect(await blockedAtOf()).toBeNull();
    try {
      const text = "Sent to someone who left";
      const confirm = await broadcastFrom(admin, () => admin.send(text));
      await admin.waitFor(
        (m) => m.message_id === confirm.message_id && m.text?.startsWith("📣 Broadcast finished"),
        { timeoutMs: 30_000 },
      );
      const row = await broadcastOf(confirm.message_id);
      const [recipient] = await h.db.db
        .select()
        .from(broadcastRecipients)
        .where(and(eq(broadcastRecipients.broadcastId, row.id), eq(broadcastRecipients.userId, gone.id)));
      expect(recipient?.state).toBe("blocked");
      expect(await blockedAtOf()).not.toBeNull();
    } finally {
      // the other tests count every user the bot knows as reachable: back in the chat, unmarked
      await gone.unblock();
      await eventually(async () => ((await blockedAtOf()) === null ? true : undefined));
    }
  });

  test("a user who is not an admin gets the unknown-command answer and starts nothing", async () => {
    const user = await startedUser(h);
    const before = await h.db.db.$count(broadcasts);
    for (const command of ["/broadcast", "/broadcast_cancel"]) {
      const sent = await user.send(command);
      const answer = await user.waitFor((m) => Boolean(m.text), { after: sent });
      expect(answer.text).toBe(translate("en", "fallback-unknown"));
    }
    expect(await h.db.db.$count(broadcasts)).toBe(before);
  });

  test("after Redis loses every job the reconciler resumes it, and nobody gets it twice", {
    timeout: 60_000,
  }, async () => {
    const many = await Promise.all(Array.from({ length: 40 }, () => startedUser(h)));
    const text = "Sent across a Redis flush";
    const { confirm, gate } = await heldBroadcast(text);
    const got = () => many.filter((u) => u.messages().some((m) => m.text === text)).length;
    // what FLUSHALL would do to this bot (other tests share the server): every key of its
    // prefix gone, with the copies queued and one under way at Telegram
    await deleteRedisKeys(h.config.redis.prefix);
    expect(got()).toBe(0);
    gate.release();
    const row = await broadcastOf(confirm.message_id);
    await admin.waitFor(
      (m) => m.message_id === confirm.message_id && m.text?.startsWith("📣 Broadcast finished"),
      { timeoutMs: 30_000 },
    );
    for (const u of many) expect(u.messages().filter((m) => m.text === text)).toHaveLength(1);
    const left = await h.db.db
      .select()
      .from(broadcastRecipients)
      .where(and(eq(broadcastRecipients.broadcastId, row.id), eq(broadcastRecipients.state, "pending")));
    expect(left).toEqual([]);
  });
});
