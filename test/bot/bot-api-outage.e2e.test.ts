import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../sandbox/playground/telegram";
import { translate } from "../../src/platform/i18n/i18n";
import type { RuntimeTiming } from "../../src/runtime/settings";
import { eventually, generationIn, type Harness, startedUser, startHarness } from "../support/harness";
import { buttons, byData, says } from "../support/messages";

/**
 * The Bot API goes away (the stand-in cuts every connection, or answers 502)
 * at each step of a conversation, and comes back: the conversation goes on
 * where it was. Every outage is far past the bot's tries of one call
 * (testTelegramRetry, about a quarter second in all), so every call in it
 * fails for good. The 10-s outage is real. The 60-s and 10-minute ones run on
 * the harness's clock, 100 times real time (0.6 s and 6 s), with the update
 * lease scaled alike (0.6 s for 60 s): a kept update outlives its lease and
 * the recovery pass meets it again and again while Telegram is away, as it
 * would in a 10-minute outage against the 60-s lease.
 */

const pollingOutageMs = 30_000;
const somethingWentWrong = (["en", "fa"] as const).map((language) => translate(language, "error-generic"));
const errorLevel = 50;
const welcome = 100;
const clockFactor = 100;

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const panel = (m: BotMessage) => buttons(m).some(byData("cv:ok"));

/** A harness whose log lines are kept, and the checks every outage test ends with. */
function outageRig(timing: Partial<RuntimeTiming> = {}) {
  const rig = {
    h: undefined as unknown as Harness,
    logs: [] as string[],
    lines: () => rig.logs.map((l) => JSON.parse(l) as LogLine),
    /** Telegram away from the next call of `from` (at once without it) for `ms`, then back. */
    async away(kind: "refused" | "5xx", from: string | undefined, ms: number): Promise<void> {
      const outage = rig.h.tg.outage({ kind, ...(from ? { from } : {}) });
      try {
        await eventually(async () => (outage.started() && outage.refused() > 0 ? true : undefined), 20_000);
        await sleep(ms);
      } finally {
        outage.end();
      }
    },
    nothingWentWrong(user: TestUser) {
      expect(rig.lines().filter((l) => l.level >= errorLevel)).toEqual([]);
      const told = user.messages().map((m) => m.text ?? m.caption ?? "");
      for (const text of somethingWentWrong) expect(told).not.toContain(text);
      for (const text of somethingWentWrong) {
        expect(rig.h.tg.calls.some((c) => c.params.chat_id === user.id && c.params.text === text)).toBe(
          false,
        );
      }
    },
    /** Confirmed once, delivered, charged once, nothing refunded. */
    async deliveredOnce(user: TestUser, prompt: string) {
      await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 30_000 });
      const g = await generationIn(rig.h, user.id, "delivered");
      expect(g.params).toMatchObject({ prompt });
      expect(await rig.h.runtime.generations.recent(user.id, 10)).toHaveLength(1);
      expect(g.charged).toBe(g.price);
      expect(await rig.h.runtime.ledger.account(user.id)).toMatchObject({
        available: welcome - g.price,
        held: 0,
      });
      expect(user.messages().filter((m) => m.photo !== undefined)).toHaveLength(1);
    },
  };
  beforeAll(async () => {
    rig.h = await startHarness({ clockFactor, logs: rig.logs, env: { LOG_LEVEL: "info" }, timing });
  });
  afterAll(async () => rig.h?.stop());
  return rig;
}

const outages = [
  { name: "10 s", ms: 10_000, timing: {} },
  {
    name: "60 s on the harness's clock",
    ms: 60_000 / clockFactor,
    timing: { updateLeaseMs: 60_000 / clockFactor },
  },
  {
    name: "10 minutes on the harness's clock",
    ms: 600_000 / clockFactor,
    timing: { updateLeaseMs: 60_000 / clockFactor },
  },
];

describe.each(outages)("a Bot API outage of $name at each step of a conversation", ({ ms, timing }) => {
  const rig = outageRig(timing);
  const testTimeout = ms + 60_000;

  test(
    "after the prompt: the description sent while Telegram is away brings the panel",
    async () => {
      const { h } = rig;
      const user = await startedUser(h);
      await user.send("/image");
      await user.waitFor(says("Describe the image"));
      const outage = h.tg.outage({ kind: "refused" });
      await user.send("a lighthouse in the fog");
      await sleep(ms);
      outage.end();
      const summary = await user.waitFor((m) => panel(m) && says("a lighthouse in the fog")(m));
      await user.press(byData("cv:ok"), { message: summary });
      await rig.deliveredOnce(user, "a lighthouse in the fog");
      rig.nothingWentWrong(user);
    },
    testTimeout,
  );

  test(
    "after the user's answer: the buttons' removal and the panel wait for Telegram, the description kept",
    async () => {
      const { h } = rig;
      const user = await startedUser(h);
      await user.send("/image");
      await user.waitFor(says("Describe the image"));
      await user.send("a harbour at night");
      await rig.away("refused", "editMessageReplyMarkup", ms);
      const summary = await user.waitFor((m) => panel(m) && says("a harbour at night")(m));
      // sending the description again is not needed, and would not start over
      await user.press(byData("cv:ok"), { message: summary });
      await rig.deliveredOnce(user, "a harbour at night");
      rig.nothingWentWrong(user);
    },
    testTimeout,
  );

  test(
    "after a press: the option picker comes once Telegram answers (502s)",
    async () => {
      const { h } = rig;
      const user = await startedUser(h);
      await user.send("/image a quiet bay");
      const summary = await user.waitFor(panel);
      const pressed = user.press(byData("cv:o:a"), { message: summary });
      await rig.away("5xx", "answerCallbackQuery", ms);
      await pressed;
      await user.waitFor(says("Choose the aspect ratio"), { timeoutMs: 10_000 });
      await user.press(byData("cv:p:16:9"), { message: await user.waitFor(buttonsWith("cv:p:16:9")) });
      const back = await user.waitFor((m) => panel(m) && says("16:9")(m));
      await user.press(byData("cv:ok"), { message: back });
      await rig.deliveredOnce(user, "a quiet bay");
      rig.nothingWentWrong(user);
    },
    testTimeout,
  );

  test(
    "during Confirm: one generation, one charge, delivered",
    async () => {
      const { h } = rig;
      const user = await startedUser(h);
      await user.send("/image a red boat");
      const summary = await user.waitFor(panel);
      const pressed = user.press(byData("cv:ok"), { message: summary });
      await rig.away("refused", "answerCallbackQuery", ms);
      await pressed;
      await rig.deliveredOnce(user, "a red boat");
      rig.nothingWentWrong(user);
    },
    testTimeout,
  );

  test(
    "during delivery: the result waits for Telegram, not refunded, and goes once",
    async () => {
      const { h } = rig;
      const user = await startedUser(h);
      await user.send("/image a white lighthouse");
      const summary = await user.waitFor(panel);
      const outage = h.tg.outage({ kind: "5xx", from: "sendPhoto" });
      try {
        await user.press(byData("cv:ok"), { message: summary });
        await eventually(async () => (outage.started() ? true : undefined), 30_000);
        await sleep(ms);
      } finally {
        outage.end();
      }
      await rig.deliveredOnce(user, "a white lighthouse");
      rig.nothingWentWrong(user);
    },
    testTimeout,
  );
});

describe("polling after a long outage", () => {
  const rig = outageRig();

  test("Telegram lost and back are logged once each, and polling comes back within seconds of a long outage", async () => {
    const { h } = rig;
    const before = rig.lines().length;
    const outage = h.tg.outage({ kind: "refused" });
    await sleep(pollingOutageMs);
    const polls = h.tg.callsOf("getUpdates").length;
    outage.end();
    const endedAt = Date.now();
    await eventually(async () => (h.tg.callsOf("getUpdates").length > polls ? true : undefined), 60_000);
    const gapMs = Date.now() - endedAt;
    expect(gapMs).toBeLessThanOrEqual(3_000);
    const during = rig.lines().slice(before);
    expect(during.filter((l) => l.msg.startsWith("Telegram lost"))).toHaveLength(1);
    await eventually(async () =>
      rig
        .lines()
        .slice(before)
        .some((l) => l.msg === "Telegram back")
        ? true
        : undefined,
    );
    const back = rig
      .lines()
      .slice(before)
      .filter((l) => l.msg === "Telegram back");
    expect(back).toHaveLength(1);
    expect(Number(back[0]?.awayMs)).toBeGreaterThanOrEqual(pollingOutageMs - 1_000);
    // and the bot answers
    const user = await startedUser(h);
    rig.nothingWentWrong(user);
  }, 90_000);
});

function buttonsWith(data: string) {
  return (m: BotMessage) => buttons(m).some(byData(data));
}
