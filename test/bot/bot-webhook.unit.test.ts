import { Bot } from "grammy";
import type { Update } from "grammy/types";
import { describe, expect, test } from "vitest";
import type { BotContext } from "../../src/bot/context";
import { maxUpdateBytes, telegramWebhookApp } from "../../src/bot/webhook";
import { testBotInfo } from "../support/bot-info";

const botInfo = testBotInfo;

const secret = "a-webhook-secret-of-some-length";

/** The journal's seam: what was recorded, in order, and whether recording works. */
function fakeJournal() {
  const recorded: number[] = [];
  return {
    recorded,
    down: false,
    async arrive(update: Update) {
      if (this.down) throw new Error("database unavailable");
      recorded.push(update.update_id);
      return true;
    },
  };
}

function setup(handler: (ctx: BotContext) => Promise<void> | void) {
  const bot = new Bot<BotContext>("123456:test-token-not-real-aaaaaaaaaaaa", { botInfo });
  const journal = fakeJournal();
  bot.use(handler);
  const app = telegramWebhookApp(bot, { secretToken: secret, path: "/telegram", timeoutMs: 200, journal });
  const postBody = (headers: Record<string, string>, body: string) =>
    app.request("/telegram", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });
  const post = (headers: Record<string, string>, updateId: number) =>
    postBody(
      headers,
      JSON.stringify({
        update_id: updateId,
        message: { message_id: 1, date: 0, chat: { id: 1, type: "private", first_name: "A" }, text: "hi" },
      }),
    );
  return { post, postBody, journal };
}

const withSecret = { "X-Telegram-Bot-Api-Secret-Token": secret };

describe("telegram webhook app", () => {
  test("hands an update with the right secret to the bot", async () => {
    const seen: number[] = [];
    const { post } = setup((ctx) => {
      seen.push(ctx.update.update_id);
    });
    const response = await post({ "X-Telegram-Bot-Api-Secret-Token": secret }, 1);
    expect(response.status).toBe(200);
    expect(seen).toEqual([1]);
  });

  test("refuses a missing or wrong secret without touching the bot", async () => {
    const seen: number[] = [];
    const { post } = setup((ctx) => {
      seen.push(ctx.update.update_id);
    });
    expect((await post({}, 2)).status).toBe(401);
    expect((await post({ "X-Telegram-Bot-Api-Secret-Token": `${secret}x` }, 3)).status).toBe(401);
    expect((await post({ "X-Telegram-Bot-Api-Secret-Token": "short" }, 4)).status).toBe(401);
    expect(seen).toEqual([]);
  });

  test("answers Telegram while a slow update goes on", async () => {
    let finished = false;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { post } = setup(async () => {
      await gate;
      finished = true;
    });
    // the handler cannot end before we release it: an answer now is an answer while it runs
    const response = await Promise.race([
      post({ "X-Telegram-Bot-Api-Secret-Token": secret }, 5),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error("no answer while the update ran")), 10_000),
      ),
    ]);
    expect(response.status).toBe(200);
    expect(finished).toBe(false);
    release();
    for (let waited = 0; !finished && waited < 5000; waited += 10)
      await new Promise((r) => setTimeout(r, 10));
    expect(finished).toBe(true);
  });

  test("a failure outside the bot's error boundary answers 500, so Telegram retries", async () => {
    const { post } = setup(() => {
      throw new Error("database unavailable");
    });
    expect((await post({ "X-Telegram-Bot-Api-Secret-Token": secret }, 6)).status).toBe(500);
  });
});

describe("telegram webhook app: nothing answered 200 is lost", () => {
  test("the update is recorded before the bot handles it", async () => {
    const order: string[] = [];
    const { post, journal } = setup((ctx) => {
      order.push(`handled ${ctx.update.update_id} (recorded: ${journal.recorded.join(",")})`);
    });
    expect((await post(withSecret, 7)).status).toBe(200);
    expect(order).toEqual(["handled 7 (recorded: 7)"]);
  });

  test("an update type the bot does not serve is answered 200 and never recorded", async () => {
    const { postBody, journal } = setup(() => undefined);
    const res = await postBody(withSecret, JSON.stringify({ update_id: 11, poll: { id: "1" } }));
    expect(res.status).toBe(200);
    expect(journal.recorded).toEqual([]);
  });

  test("an update that cannot be recorded is not handled and answered 500, so Telegram retries", async () => {
    const seen: number[] = [];
    const { post, journal } = setup((ctx) => {
      seen.push(ctx.update.update_id);
    });
    journal.down = true;
    expect((await post(withSecret, 8)).status).toBe(500);
    expect(seen).toEqual([]);
  });

  test("the body cap counts bytes: 600,000 euro signs (1.8 MB, 0.6 M characters) are refused", async () => {
    const seen: number[] = [];
    const { postBody, journal } = setup((ctx) => {
      seen.push(ctx.update.update_id);
    });
    const text = "€".repeat(600_000);
    expect(text.length).toBeLessThan(maxUpdateBytes);
    const body = JSON.stringify({ update_id: 9, message: { text } });
    expect((await postBody(withSecret, body)).status).toBe(413);
    expect(seen).toEqual([]);
    expect(journal.recorded).toEqual([]);
  });

  test("a stated length over the cap is refused from the header; a stated length within it is read and handled", async () => {
    const seen: number[] = [];
    const { postBody, journal } = setup((ctx) => {
      seen.push(ctx.update.update_id);
    });
    const big = JSON.stringify({ update_id: 10, message: { text: "€".repeat(600_000) } });
    const stated = { ...withSecret, "content-length": String(Buffer.byteLength(big)) };
    expect((await postBody(stated, big)).status).toBe(413);
    expect(journal.recorded).toEqual([]);
    const update = JSON.stringify({
      update_id: 12,
      message: { message_id: 1, date: 0, chat: { id: 1, type: "private", first_name: "A" }, text: "hi" },
    });
    const small = await postBody(
      { ...withSecret, "content-length": String(Buffer.byteLength(update)) },
      update,
    );
    expect(small.status).toBe(200);
    expect(seen).toEqual([12]);
  });

  test("a body that is not an update is refused without a 5xx", async () => {
    const { postBody, journal } = setup(() => undefined);
    for (const body of ["", "null", "[]", "{", '{"update_id":"1"}', '{"update_id":-1}', "\u0000"]) {
      const res = await postBody(withSecret, body);
      expect(res.status, body).toBe(400);
    }
    expect(journal.recorded).toEqual([]);
  });
});
