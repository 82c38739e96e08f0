import type { ChildProcess } from "node:child_process";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { broadcastRecipients, broadcasts, users } from "../../../src/platform/db/schema";
import { translate } from "../../../src/platform/i18n/i18n";
import { defaultPolicy } from "../../../src/runtime/settings";
import { blockedUserIds } from "../../support/blocked-users";
import { eventually, type Harness, startHarness } from "../../support/harness";

/** The admin's final totals, read back from the progress message's text (English). */
function finalTotals(message: BotMessage) {
  const text = message.text ?? "";
  const line = /✅ Sent: (\d+) · ⚠️ Failed: (\d+) · 🚫 Blocked: (\d+) · of (\d+)/.exec(text);
  expect(line, text).not.toBeNull();
  const [sent, failed, blocked, total] = line!.slice(1).map(Number) as [number, number, number, number];
  const unconfirmed = Number(/❔ Unconfirmed: (\d+)/.exec(text)?.[1] ?? 0);
  // the numbers are all there is: the message is exactly what the locale says for them
  const expected = translate("en", "bc-done", { sent, failed, blocked, total });
  expect(text).toBe(
    unconfirmed === 0 ? expected : `${expected}\n${translate("en", "bc-unconfirmed", { unconfirmed })}`,
  );
  return { sent, failed, blocked, unconfirmed, total };
}

/** The first user a fresh stand-in makes has this id: the admin here. */
const adminId = 5_000_000_001;
const people = 300;
const { sendConcurrency } = defaultPolicy;
const text = "Our spring sale starts today";

/**
 * A broadcast to a few hundred users, 5% of whom blocked the bot without it
 * knowing, against a stand-in whose global limit (40/s) is below the bot's own
 * (60/s), so 429s come. The bot's process (all roles, the default send
 * concurrency) is SIGKILLed at the moment Telegram has made a copy the bot has
 * not yet recorded, then started again. The copies it had claimed are lost or
 * made unrecorded: neither is sent again, and the totals say how many are unconfirmed.
 */
describe("a broadcast survives a SIGKILL of the bot midway", () => {
  let h: Harness | undefined;
  let bot: ChildProcess | undefined;

  afterAll(async () => {
    bot?.kill("SIGKILL");
    await h?.stop();
  });

  test("nobody gets it twice, blocked users are marked, the totals count the unconfirmed copies", {
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
      policy: { sendConcurrency },
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
    const progress = await admin.waitFor(
      (m) => m.message_id === confirm.message_id && m.text?.startsWith("📣 Broadcast finished"),
      { timeoutMs: 60_000 },
    );
    expect(progress.reply_markup?.inline_keyboard.flat() ?? []).toEqual([]);
    const shown = finalTotals(progress);

    const floods = harness.tg
      .callsOf("copyMessage")
      .filter((c) => !c.response.ok && c.response.error_code === 429);
    expect(floods.length).toBeGreaterThan(0);

    const db = harness.db.db;
    const [row] = await db
      .select()
      .from(broadcasts)
      .where(eq(broadcasts.progressMessageId, confirm.message_id));
    const total = people + 1;
    expect(row).toMatchObject({ state: "done", total });
    const rows = new Map(
      (
        await db
          .select({
            userId: broadcastRecipients.userId,
            state: broadcastRecipients.state,
            messageId: broadcastRecipients.messageId,
          })
          .from(broadcastRecipients)
          .where(eq(broadcastRecipients.broadcastId, row!.id))
      ).map((r) => [r.userId, r]),
    );
    expect(rows.size).toBe(total);

    // what Telegram holds: nobody has it twice, the blocked nobody (the admin's preview came before the audience)
    const copiesOf = (u: TestUser) =>
      u.messages().filter((m) => m.text === text && (u !== admin || m.message_id > pick.message_id));
    const recipients = [admin, ...reachable];
    for (const u of recipients) expect(copiesOf(u).length, `user ${u.id}`).toBeLessThanOrEqual(1);
    for (const u of blocked) expect(u.messages()).toHaveLength(0);
    // a user who blocked the bot and whose copy was under way at the kill never had Telegram's 403
    // recorded: no copy, not known to be blocked, so unconfirmed like any copy in flight
    const refused = blocked.filter((u) => rows.get(u.id)?.state === "blocked");
    const noCopy = [...recipients, ...blocked].filter(
      (u) => copiesOf(u).length === 0 && rows.get(u.id)?.state !== "blocked",
    );
    const copiedUnrecorded = recipients.filter((u) => copiesOf(u).length === 1 && !rows.get(u.id)?.messageId);
    // each recorded copy is the one the user has
    const recorded = recipients.filter((u) => rows.get(u.id)?.state === "sent");
    for (const u of recorded)
      expect(rows.get(u.id)?.messageId, `user ${u.id}`).toBe(copiesOf(u)[0]?.message_id);

    // the totals are honest: what is not known to have arrived is not counted as sent
    expect(shown.unconfirmed).toBe(noCopy.length + copiedUnrecorded.length);
    expect(shown.sent).toBe(recorded.length);
    expect(shown).toMatchObject({ failed: 0, blocked: refused.length, total });
    expect(blocked.length - refused.length).toBeLessThanOrEqual(sendConcurrency);
    expect(shown.sent + shown.blocked + shown.failed + shown.unconfirmed).toBe(total);
    // the copy Telegram made as the bot died is among them; one dead process leaves at most its concurrency
    expect(copiedUnrecorded.length).toBeGreaterThanOrEqual(1);
    expect(shown.unconfirmed).toBeLessThanOrEqual(sendConcurrency);
    expect(
      [...rows.values()]
        .filter((r) => r.state === "unconfirmed")
        .map((r) => r.userId)
        .sort(),
    ).toEqual([...noCopy, ...copiedUnrecorded].map((u) => u.id).sort());
    expect(
      [...rows.values()]
        .filter((r) => r.state === "blocked")
        .map((r) => r.userId)
        .sort(),
    ).toEqual(refused.map((u) => u.id).sort());
    // the users marked as having blocked the bot are exactly those whose 403 was recorded
    expect(await blockedUserIds(db)).toEqual(refused.map((u) => u.id).sort((a, b) => a - b));
    await eventually(async () => (bot?.exitCode === null ? true : undefined));
  });
});
