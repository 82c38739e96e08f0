import { Bot } from "grammy";
import { describe, expect, test } from "vitest";
import type { BotContext } from "../../src/bot/context";
import { telegramWebhookApp } from "../../src/bot/webhook";
import { testBotInfo } from "../support/bot-info";

const botInfo = testBotInfo;

const secret = "a-webhook-secret-of-some-length";

function setup(handler: (ctx: BotContext) => Promise<void> | void) {
  const bot = new Bot<BotContext>("123456:test-token-not-real-aaaaaaaaaaaa", { botInfo });
  bot.use(handler);
  const app = telegramWebhookApp(bot, { secretToken: secret, path: "/telegram", timeoutMs: 200 });
  const post = (headers: Record<string, string>, updateId: number) =>
    app.request("/telegram", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ update_id: updateId, poll: { id: "1" } }),
    });
  return { post };
}

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

  test("answers Telegram in bounded time while a slow update goes on", async () => {
    let finished = false;
    const { post } = setup(async () => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      finished = true;
    });
    const started = Date.now();
    const response = await post({ "X-Telegram-Bot-Api-Secret-Token": secret }, 5);
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(550);
    expect(finished).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(finished).toBe(true);
  });

  test("a failure outside the bot's error boundary answers 500, so Telegram retries", async () => {
    const { post } = setup(() => {
      throw new Error("database unavailable");
    });
    expect((await post({ "X-Telegram-Bot-Api-Secret-Token": secret }, 6)).status).toBe(500);
  });
});
