import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { confirmOffer, generationIn, type Harness, startedUser, startHarness } from "../support/harness";

/** A whole run at debug level, errors included, and not one secret in the logs. */
describe("logs never contain tokens, keys or Telegram file URLs", () => {
  let h: Harness;
  const logs: string[] = [];
  beforeAll(async () => {
    h = await startHarness({ logs, env: { LOG_LEVEL: "debug" } });
  });
  afterAll(async () => h?.stop());

  test("an edit (file proxy), a failed send and a service error leave no secret behind", async () => {
    const user = await startedUser(h);
    h.sim.faults.nextCreate({ status: 500 });
    await user.sendPhoto({ width: 300, height: 300, caption: "/edit make it blue" });
    await confirmOffer(user);
    await generationIn(h, user.id, "delivered");
    h.tg.failNext("sendMessage", { code: 500, description: "Internal Server Error" });
    await user.send("/balance");
    await new Promise((r) => setTimeout(r, 300));
    expect(logs.length).toBeGreaterThan(0);
    const all = logs.join("\n");
    expect(all).not.toContain(h.tg.token.split(":")[1]!);
    expect(all).not.toContain("e2e-media-key");
    expect(all).not.toContain(h.config.signingSecret);
    expect(all).not.toContain("/file/bot");
  });
});
