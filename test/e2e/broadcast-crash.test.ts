import type { ChildProcess } from "node:child_process";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";
import { translate } from "../../src/bot/i18n";
import { broadcastRecipients, broadcasts, users } from "../../src/db/schema";
import type { TestUser } from "../../src/playground/telegram";
import { blockedUserIds } from "../support/blocked-users";
import { eventually, type Harness, startHarness } from "../support/harness";

/** The first user a fresh stand-in makes has this id: the admin here. */
const adminId = 5_000_000_001;
const people = 300;
const text = "Our spring sale starts today";

/**
 * A broadcast to a few hundred users, 5% of whom blocked the bot without it
 * knowing, against a stand-in whose global limit (40/s) is below the bot's own
 * (60/s), so 429s come. The bot's process (all roles) is SIGKILLed at the
 * moment Telegram has made a copy the bot has not yet recorded, then started
 * again.
 */
describe("a broadcast survives a SIGKILL of the bot midway", () => {
  let h: Harness | undefined;
  let bot: ChildProcess | undefined;

  afterAll(async () => {
    bot?.kill("SIGKILL");
    await h?.stop();
  });

  test("every reachable user gets it exactly once, blocked users are marked, the totals are right", {
    timeout: 120_000,
  }, async () => {
    h = await startHarness({
      clockFactor: 1,
      noRuntime: true,
      env: { ADMIN_IDS: String(adminId), TELEGRAM_SENDS_PER_SECOND: "60" },
      telegramRules: {
        flood: { perChat: { perSecond: 1, burst: 3 }, perGroupPerMinute: 20, globalPerSecond: 40 },
      },
      timing: { broadcastTickMs: 1_200, broadcastClaimStaleMs: 3_000, jobLockMs: 3_000 },
      // One copy at a time, so the kill finds no other copy claimed and not yet sent. That
      // instant (claim committed, request not written) is the one where a copy is lost rather
      // than doubled: at most once is the promise, and this test is about "never twice".
      policy: { sendConcurrency: 1 },
    });
    const harness = h;
    const admin = harness.tg.user();
    expect(admin.id).toBe(adminId);
    const everyone: TestUser[] = Array.from({ length: people }, (_, i) =>
      harness.tg.user({ started: true, language: i % 4 === 0 ? "fa" : "en" }),
    );
    // known to the bot from earlier
    await harness.db.db
      .insert(users)
      .values(everyone.map((u) => ({ id: u.id, firstName: u.info.first_name, language: "en" })));
    const blocked = everyone.filter((_, i) => i % 20 === 7);
    for (const u of blocked) await u.block({ unnoticed: true });
    const reachable = everyone.filter((u) => !blocked.includes(u));

    const received = () => reachable.filter((u) => u.messages().some((m) => m.text === text)).length;
    bot = await harness.spawnRuntime({ ROLE: "all" });
    let killed = false;
    const killedMidway = new Promise<void>((resolve) => {
      const stop = harness.tg.onChange(() => {
        if (killed || received() < 100) return;
        // Telegram has just made a copy: the bot has not recorded it yet
        killed = true;
        bot?.kill("SIGKILL");
        stop();
        resolve();
      });
    });

    await admin.send("/broadcast");
    await admin.waitFor((m) => m.text === translate("en", "bc-ask"), { timeoutMs: 10_000 });
    await admin.send(text);
    const pick = await admin.waitFor((m) => m.text?.endsWith(translate("en", "bc-pick-audience")), {
      timeoutMs: 10_000,
    });
    await admin.press(/^Everyone/, { message: pick });
    const confirm = await admin.waitFor(
      (m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text.startsWith("✅")),
      {
        timeoutMs: 10_000,
      },
    );
    // Telegram's flood control answers the first copies with a 429, whatever the machine's speed
    // (the global limit of the stand-in adds more when the bot sends fast enough)
    harness.tg.failNext(
      "copyMessage",
      { code: 429, description: "Too Many Requests: retry after 1", retryAfter: 1 },
      2,
    );
    await admin.press(/^✅/, { message: confirm });

    await killedMidway;
    await new Promise<void>((resolve) => {
      if (bot?.exitCode !== null || bot.signalCode !== null) resolve();
      else bot.once("exit", () => resolve());
    });
    const atKill = received();
    expect(atKill).toBeGreaterThanOrEqual(100);
    expect(atKill).toBeLessThan(reachable.length);

    bot = await harness.spawnRuntime({ ROLE: "all" });
    const total = people + 1;
    const finalText = translate("en", "bc-done", {
      sent: reachable.length + 1,
      failed: 0,
      blocked: blocked.length,
      total,
    });
    const progress = await admin.waitFor((m) => m.message_id === confirm.message_id && m.text === finalText, {
      timeoutMs: 60_000,
    });
    expect(progress.reply_markup?.inline_keyboard.flat() ?? []).toEqual([]);

    for (const u of reachable)
      expect(
        u.messages().filter((m) => m.text === text),
        `user ${u.id}`,
      ).toHaveLength(1);
    for (const u of blocked) expect(u.messages()).toHaveLength(0);
    // the preview, then the admin's own copy
    expect(admin.messages().filter((m) => m.text === text)).toHaveLength(2);

    const floods = harness.tg
      .callsOf("copyMessage")
      .filter((c) => !c.response.ok && c.response.error_code === 429);
    expect(floods.length).toBeGreaterThan(0);

    const db = harness.db.db;
    const [row] = await db
      .select()
      .from(broadcasts)
      .where(eq(broadcasts.progressMessageId, confirm.message_id));
    expect(row).toMatchObject({ state: "done", total });
    const states = await db
      .select({ userId: broadcastRecipients.userId, state: broadcastRecipients.state })
      .from(broadcastRecipients)
      .where(eq(broadcastRecipients.broadcastId, row!.id));
    expect(
      states
        .filter((r) => r.state === "blocked")
        .map((r) => r.userId)
        .sort(),
    ).toEqual(blocked.map((u) => u.id).sort());
    expect(states.filter((r) => r.state === "sent")).toHaveLength(reachable.length + 1);
    // the copy Telegram made as the bot died was never recorded by it, and was not made again
    const unconfirmed = await db
      .select({ userId: broadcastRecipients.userId })
      .from(broadcastRecipients)
      .where(eq(broadcastRecipients.error, "unconfirmed: the copy's worker stopped during the call"));
    expect(unconfirmed.length).toBeGreaterThanOrEqual(1);
    // the users marked as having blocked the bot are exactly those who did
    expect(await blockedUserIds(db)).toEqual(blocked.map((u) => u.id).sort((a, b) => a - b));
    await eventually(async () => (bot?.exitCode === null ? true : undefined));
  });
});
