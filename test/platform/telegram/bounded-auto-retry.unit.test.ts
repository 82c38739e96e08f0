import { Api, GrammyError } from "grammy";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTelegramStandIn, type TelegramStandIn } from "../../../sandbox/playground/telegram";
import { boundedAutoRetry } from "../../../src/platform/telegram/api-transformers";

/** What the bot's API client retries on its own, against the Telegram stand-in. */
describe("boundedAutoRetry", () => {
  let tg: TelegramStandIn;
  let api: Api;
  beforeAll(async () => {
    tg = await startTelegramStandIn({ rules: { flood: false } });
    api = new Api(tg.token, { apiRoot: tg.apiRoot });
    api.config.use(boundedAutoRetry());
  });
  afterAll(async () => tg?.close());

  test("a 5xx is thrown at once, not retried with the plugin's doubling backoff that would hold the chat", async () => {
    const user = tg.user();
    await user.send("/start");
    const before = tg.callsOf("sendMessage").length;
    tg.failNext("sendMessage", { code: 502, description: "Bad Gateway" });
    const failed = await api.sendMessage(user.chatId, "hello").catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(GrammyError);
    expect((failed as GrammyError).error_code).toBe(502);
    expect(tg.callsOf("sendMessage").length - before).toBe(1);
  });

  test("a 429 with a short retry_after is retried and goes through", async () => {
    const user = tg.user();
    await user.send("/start");
    const before = tg.callsOf("sendMessage").length;
    tg.failNext("sendMessage", { code: 429, description: "Too Many Requests: retry after 1", retryAfter: 1 });
    const sent = await api.sendMessage(user.chatId, "hello again");
    expect(sent.text).toBe("hello again");
    expect(tg.callsOf("sendMessage").length - before).toBe(2);
  });
});
