import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  confirmOffer,
  eventually,
  generationIn,
  type Harness,
  requestImage,
  startedUser,
  startHarness,
} from "../support/harness";

/**
 * A run at debug level where the lines most likely to carry a secret are
 * written (a service error, a failed Telegram send) after an edit whose photo went
 * through the file proxy: they are logged, and not one secret is in them.
 */
describe("logs never contain tokens, keys or Telegram file URLs", () => {
  let h: Harness;
  const logs: string[] = [];
  beforeAll(async () => {
    h = await startHarness({ logs, env: { LOG_LEVEL: "debug" } });
  });
  afterAll(async () => h?.stop());

  const logged = (pattern: RegExp) =>
    eventually(async () => logs.find((line) => pattern.test(line)) ?? undefined, 45_000).catch(() => {
      throw new Error(`no line matches ${pattern}; logged:\n${logs.map((l) => l.slice(0, 200)).join("\n")}`);
    });

  test("an edit through the file proxy, then a service error and a failed send are logged without a secret", async () => {
    const user = await startedUser(h);
    // the service fetches the photo through our file proxy (which holds the Telegram file URL)
    await user.sendPhoto({ width: 300, height: 300, caption: "/edit make it blue" });
    await confirmOffer(user);
    await generationIn(h, user.id, "delivered");
    await logged(/"route":"\/files\/:token","status":200/);
    h.sim.faults.nextCreate({ status: 500, times: 1000 });
    await requestImage(user, "a service error");
    await logged(/"queue":"submit".*job failed|job failed.*"queue":"submit"/);
    h.sim.faults.clear();
    // once that request is settled nothing else of this user's is sending, so the failures below hit /balance
    await generationIn(h, user.id, "delivered", 45_000);
    // Telegram refusing one method with 5xx while it answers getMe: each try of the update tries the reply
    // a few times, and the update is tried again at once until the reply goes (its tries counted)
    h.tg.failNext("sendMessage", { code: 500, description: "Internal Server Error" }, 20);
    await user.send("/balance");
    await logged(/"msg":"Telegram refused a call in passing: update tried again"/);
    await user.waitFor((m) => (m.text ?? "").includes("💳"));
    expect(logs.some((line) => line.includes('"msg":"Telegram lost'))).toBe(false);
    const all = logs.join("\n");
    expect(all).not.toContain(h.tg.token.split(":")[1]!);
    expect(all).not.toContain("e2e-media-key");
    expect(all).not.toContain(h.config.signingSecret);
    expect(all).not.toContain(h.config.media.webhookSecret);
    expect(all).not.toContain("/file/bot");
  }, 120_000);
});
