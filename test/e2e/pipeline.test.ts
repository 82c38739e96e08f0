import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generationIn, type Harness, startHarness } from "../support/harness";

describe("a generation from command to media in the chat", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  test("a user makes an image and pays for it once", async () => {
    const user = h.tg.user({ language: "en" });
    await user.send("/start");
    await user.waitFor((m) => m.text?.includes("100"));
    await user.send("/image a red lighthouse at dusk");
    const offer = await user.waitFor((m) => m.text?.includes("Confirm?"));
    await user.press("✅ Confirm", { message: offer });
    const photo = await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    expect(photo.caption).toContain("lighthouse");
    const account = await h.runtime.ledger.account(user.id);
    const g = await generationIn(h, user.id, "delivered");
    expect(account).toEqual({ userId: user.id, available: 100 - g!.price, held: 0 });
    expect(await h.runtime.ledger.audit()).toEqual([]);
  });
});
