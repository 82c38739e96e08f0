import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { translate } from "../../../src/platform/i18n/i18n";
import { generationIn, type Harness, startedUser, startHarness } from "../../support/harness";
import { buttons } from "../../support/messages";
import { invoiceFromPacks, isPacks } from "../../support/payments";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);
const welcome = 100;

describe("the request panel's Buy credits button", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { WELCOME_CREDITS: String(welcome) } });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });
  afterEach(async () => {
    expect(await h.runtime.ledger.audit()).toEqual([]);
  });

  /** `/image <prompt>`: the panel it brings, and the price its Confirm shows. */
  async function imagePanel(user: TestUser, prompt: string): Promise<{ panel: BotMessage; price: number }> {
    const sent = await user.send(`/image ${prompt}`);
    const panel = await user.waitFor((m) => buttons(m).some((b) => b.text.includes("✅")), { after: sent });
    const confirm = buttons(panel).find((b) => b.text.includes("✅"))?.text ?? "";
    const price = Number(/(\d+)/.exec(confirm)?.[1]);
    expect(confirm).toBe(en("cv-btn-confirm", { price }));
    return { panel, price };
  }

  const labels = (m: BotMessage) => buttons(m).map((b) => b.text);
  const generationsOf = (user: TestUser) => h.runtime.generations.recent(user.id, 50);

  test("shown only when the price is above the balance; it opens the packs, and after buying the same panel's Confirm makes the request once", async () => {
    const user = await startedUser(h);
    const rich = await imagePanel(user, "a lighthouse at noon");
    expect(rich.price).toBeLessThanOrEqual(welcome);
    expect(labels(rich.panel)).not.toContain(en("buy-button"));
    const cancelled = await user.send("/cancel");
    await user.waitFor((m) => Boolean(m.text), { after: cancelled });

    // 3 credits left: less than any picture costs
    await h.runtime.ledger.takeUpTo({ userId: user.id, amount: welcome - 3, key: `test-spend-${user.id}` });
    const { panel, price } = await imagePanel(user, "a lighthouse at dusk");
    expect(price).toBeGreaterThan(3);
    expect(labels(panel)).toContain(en("buy-button"));
    expect(panel.text).toContain(en("cv-line-price", { price, available: 3 }));

    await user.press(en("buy-button"), { message: panel });
    const packs = await user.waitFor(isPacks, { after: panel });
    expect(packs.text).toBe(en("buy-packs", { available: 3 }));
    const invoice = await invoiceFromPacks(user, packs, 50);
    const paid = await user.pay(invoice);
    expect(paid.ok).toBe(true);
    await user.waitFor((m) => m.text === en("buy-paid", { credits: 50, available: 53 }), { after: invoice });
    expect(await generationsOf(user)).toHaveLength(0);

    // the panel is still the conversation's: its Confirm makes the request, once
    await user.press(/✅/, { message: panel });
    const g = await generationIn(h, user.id, "delivered");
    expect(g.price).toBe(price);
    expect(await generationsOf(user)).toHaveLength(1);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: 53 - price, held: 0 });
  });
});
