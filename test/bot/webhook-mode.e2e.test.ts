import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  eventually,
  generationIn,
  type Harness,
  requestImage,
  startedUser,
  startHarness,
} from "../support/harness";

/** BOT_MODE=webhook: Telegram posts updates to PUBLIC_URL/telegram with the secret header. */
describe("webhook mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { BOT_MODE: "webhook", TELEGRAM_WEBHOOK_SECRET: "tg-webhook-secret-0123456789" },
    });
  });
  afterAll(async () => h?.stop());

  test("the bot registers its webhook with the secret and serves a whole generation through it", async () => {
    expect(h.tg.mode).toBe("webhook");
    expect(h.tg.webhookInfo().url).toBe(`${h.config.publicUrl}/telegram`);
    // this test's deliveries: the restart test of this file sees refused ones while the bot is down
    const first = h.tg.deliveries.length;
    const user = await startedUser(h);
    await requestImage(user, "a windmill");
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    await generationIn(h, user.id, "delivered");
    const mine = h.tg.deliveries.slice(first);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((d) => d.status === 200)).toBe(true);
  });

  test("a post without the secret header is refused", async () => {
    const res = await fetch(`${h.config.publicUrl}/telegram`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        update_id: 1,
        message: { message_id: 1, date: 0, chat: { id: 1, type: "private" }, text: "/start" },
      }),
    });
    expect(res.status).toBe(401);
  });

  test("a restart waits for the update in hand: the user's step is neither lost nor broken", async () => {
    const user = h.tg.user();
    h.tg.delayNext("sendMessage", 1_500);
    await user.send("/start");
    // the bot is handling it (the sender is recorded first); the welcome is held by Telegram
    await eventually(async () => (await h.runtime.users.get(user.id)) ?? undefined);
    await h.stopRuntime();
    const welcome = user.messages().find((m) => m.text?.includes("credits"));
    expect(welcome).toBeDefined();
    expect(user.messages().some((m) => m.text?.includes("went wrong"))).toBe(false);
    await h.startRuntime();
    await user.send("/balance");
    await user.waitFor((m) => Boolean(m.text?.includes("Available")), { timeoutMs: 10_000 });
  });
});
