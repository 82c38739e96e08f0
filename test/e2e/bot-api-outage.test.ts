import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { translate } from "../../src/i18n/i18n";
import type { BotMessage, TestUser } from "../../src/playground/telegram";
import { eventually, generationIn, type Harness, startedUser, startHarness } from "../support/harness";
import { buttons, byData, says } from "../support/messages";

/**
 * The Bot API goes away (the stand-in cuts every connection, or answers 502)
 * at each step of a conversation, and comes back: the conversation goes on
 * where it was. The outages here are a few real seconds: far past the bot's
 * tries of one call (testTelegramRetry, about a quarter second in all), so
 * every call in them fails for good, as in a longer outage.
 */

const outageMs = 2_000;
const pollingOutageMs = 30_000;
const somethingWentWrong = (["en", "fa"] as const).map((language) => translate(language, "error-generic"));
const errorLevel = 50;
const welcome = 100;

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const panel = (m: BotMessage) => buttons(m).some(byData("cv:ok"));

describe("a Bot API outage at each step of a conversation", () => {
  let h: Harness;
  const logs: string[] = [];
  const lines = () => logs.map((l) => JSON.parse(l) as LogLine);

  beforeAll(async () => {
    h = await startHarness({ logs, env: { LOG_LEVEL: "info" } });
  });
  afterAll(async () => h?.stop());

  /** Telegram away from the next call of `from` (at once without it) for `ms`, then back. */
  async function away(kind: "refused" | "5xx", from: string | undefined, ms = outageMs): Promise<void> {
    const outage = h.tg.outage({ kind, ...(from ? { from } : {}) });
    try {
      await eventually(async () => (outage.started() && outage.refused() > 0 ? true : undefined), 10_000);
      await sleep(ms);
    } finally {
      outage.end();
    }
  }

  function nothingWentWrong(user: TestUser) {
    expect(lines().filter((l) => l.level >= errorLevel)).toEqual([]);
    const told = user.messages().map((m) => m.text ?? m.caption ?? "");
    for (const text of somethingWentWrong) expect(told).not.toContain(text);
    for (const text of somethingWentWrong) {
      expect(h.tg.calls.some((c) => c.params.chat_id === user.id && c.params.text === text)).toBe(false);
    }
  }

  /** Confirmed once, delivered, charged once. */
  async function deliveredOnce(user: TestUser, prompt: string) {
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({ prompt });
    expect(await h.runtime.generations.recent(user.id, 10)).toHaveLength(1);
    expect(g.charged).toBe(g.price);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: welcome - g.price, held: 0 });
  }

  test("after the prompt: the description sent while Telegram is away brings the panel", async () => {
    const user = await startedUser(h);
    await user.send("/image");
    await user.waitFor(says("Describe the image"));
    const outage = h.tg.outage({ kind: "refused" });
    await user.send("a lighthouse in the fog");
    await sleep(outageMs);
    outage.end();
    const summary = await user.waitFor((m) => panel(m) && says("a lighthouse in the fog")(m));
    await user.press(byData("cv:ok"), { message: summary });
    await deliveredOnce(user, "a lighthouse in the fog");
    nothingWentWrong(user);
  });

  test("after the user's answer: the buttons' removal and the panel wait for Telegram, the description kept", async () => {
    const user = await startedUser(h);
    await user.send("/image");
    await user.waitFor(says("Describe the image"));
    await user.send("a harbour at night");
    await away("refused", "editMessageReplyMarkup");
    const summary = await user.waitFor((m) => panel(m) && says("a harbour at night")(m));
    // sending the description again is not needed, and would not start over
    await user.press(byData("cv:ok"), { message: summary });
    await deliveredOnce(user, "a harbour at night");
    nothingWentWrong(user);
  });

  test("after a press: the option picker comes once Telegram answers (502s)", async () => {
    const user = await startedUser(h);
    await user.send("/image a quiet bay");
    const summary = await user.waitFor(panel);
    const pressed = user.press(byData("cv:o:a"), { message: summary });
    await away("5xx", "answerCallbackQuery");
    await pressed;
    await user.waitFor(says("Choose the aspect ratio"), { timeoutMs: 10_000 });
    await user.press(byData("cv:p:16:9"), { message: await user.waitFor(buttonsWith("cv:p:16:9")) });
    const back = await user.waitFor((m) => panel(m) && says("16:9")(m));
    await user.press(byData("cv:ok"), { message: back });
    await deliveredOnce(user, "a quiet bay");
    nothingWentWrong(user);
  });

  test("during Confirm: one generation, one charge, delivered", async () => {
    const user = await startedUser(h);
    await user.send("/image a red boat");
    const summary = await user.waitFor(panel);
    const pressed = user.press(byData("cv:ok"), { message: summary });
    await away("refused", "answerCallbackQuery");
    await pressed;
    await deliveredOnce(user, "a red boat");
    nothingWentWrong(user);
  });

  test("Telegram lost and back are logged once each, and polling comes back within seconds of a long outage", async () => {
    const before = lines().length;
    const outage = h.tg.outage({ kind: "refused" });
    await sleep(pollingOutageMs);
    const polls = h.tg.callsOf("getUpdates").length;
    outage.end();
    const endedAt = Date.now();
    await eventually(async () => (h.tg.callsOf("getUpdates").length > polls ? true : undefined), 60_000);
    const gapMs = Date.now() - endedAt;
    expect(gapMs).toBeLessThanOrEqual(3_000);
    const during = lines().slice(before);
    expect(during.filter((l) => l.msg.startsWith("Telegram lost"))).toHaveLength(1);
    await eventually(async () =>
      lines()
        .slice(before)
        .some((l) => l.msg === "Telegram back")
        ? true
        : undefined,
    );
    const back = lines()
      .slice(before)
      .filter((l) => l.msg === "Telegram back");
    expect(back).toHaveLength(1);
    expect(Number(back[0]?.awayMs)).toBeGreaterThanOrEqual(pollingOutageMs - 1_000);
    // and the bot answers
    const user = await startedUser(h);
    nothingWentWrong(user);
  }, 90_000);
});

function buttonsWith(data: string) {
  return (m: BotMessage) => buttons(m).some(byData(data));
}
