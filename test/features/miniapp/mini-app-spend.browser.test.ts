import type { FrameLocator, Locator } from "playwright-core";
import { describe, expect, test } from "vitest";
import { openMiniApp, panelShot, playgroundSuite, spendMovements } from "../../support/browser-suite";
import type { ChatPage } from "../../support/chromium";

/** The number a `<Num>` shows (its plain value is kept in data-value). */
async function shownNumber(locator: Locator): Promise<number> {
  return Number(await locator.getAttribute("data-value"));
}

/**
 * A thumb's tap on Confirm, wherever it is now: nothing when the button is
 * disabled or gone (as on a phone), and no waiting for it to become pressable
 * (as Playwright's click would).
 */
async function tapConfirm(app: FrameLocator): Promise<void> {
  await app
    .locator("body")
    .evaluate((body: { querySelector(selector: string): { click(): void } | null }) =>
      body.querySelector('[data-testid="confirm"]')?.click(),
    );
}

/**
 * Issue 46: one draft of the Mini App's composer spends at most once, however
 * often Confirm is tapped; the request's status then takes Confirm's place,
 * and "Make another" is a deliberate new draft, priced and charged again.
 */
describe("the Mini App's Confirm spends once per draft, in Chromium", () => {
  const suite = playgroundSuite("mini-app-spend");

  test("three taps within 2 s and one after 'Started': one charge, one result; 'Make another' a second, priced", async () => {
    const chat: ChatPage = await suite.chatAs("Alex", { size: { width: 400, height: 860 } });
    const app = await openMiniApp(chat);
    await app.getByTestId("tab-credits").click();
    const before = await shownNumber(app.getByTestId("balance-available"));
    expect(await spendMovements(app)).toEqual([]);

    await app.getByTestId("tab-create").click();
    await app.getByTestId("op-image").click();
    const prompt = "a paper lantern over a dark river";
    await app.getByTestId("prompt").fill(prompt);
    const price = app.getByTestId("price");
    await expect.poll(async () => Number((await price.getAttribute("data-value")) || 0)).toBeGreaterThan(0);
    const credits = await shownNumber(price);
    await expect.poll(() => app.getByTestId("confirm").isEnabled()).toBe(true);

    // three taps within 2 s, the first answered before the last
    const started = Date.now();
    for (const wait of [0, 600, 600]) {
      await chat.page.waitForTimeout(wait);
      await tapConfirm(app);
    }
    expect(Date.now() - started).toBeLessThan(2_000);
    const status = app.getByTestId("compose-status");
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/^Started/);
    // one more after "Started"
    await tapConfirm(app);

    // one result in the chat (a second would follow within moments), charged once
    const pictures = chat
      .botMessages()
      .filter({ hasText: prompt })
      .filter({ has: chat.page.locator("img") });
    await expect.poll(() => pictures.count(), { timeout: 40_000 }).toBeGreaterThan(0);
    await chat.page.waitForTimeout(2_000);
    expect(await pictures.count()).toBe(1);
    const header = app.getByTestId("header-balance").locator("bdi");
    await expect.poll(() => shownNumber(header)).toBe(before - credits);

    // Confirm is no longer offered for this draft: the request's status, as the chat says it, is
    expect(await app.getByTestId("confirm").count()).toBe(0);
    await app.getByTestId("make-another").waitFor();
    const request = app.getByTestId("request-status");
    await expect.poll(() => request.getAttribute("data-phase"), { timeout: 40_000 }).toBe("done");
    await expect(request.textContent()).resolves.toContain("Done!");
    await app.getByTestId("open-result").waitFor();
    expect(await shownNumber(header)).toBe(before - credits);
    await panelShot(chat, "composer-spent");

    // on purpose, another: a new draft, its price shown again before its Confirm
    await app.getByTestId("make-another").click();
    const confirm = app.getByTestId("confirm");
    await expect.poll(() => confirm.isEnabled()).toBe(true);
    expect(await app.getByTestId("make-another").count()).toBe(0);
    expect(await app.getByTestId("request-status").count()).toBe(0);
    expect(await shownNumber(price)).toBe(credits);
    await expect(confirm.textContent()).resolves.toContain(String(credits));
    await confirm.click();
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/^Started/);
    await expect.poll(() => request.getAttribute("data-phase"), { timeout: 40_000 }).toBe("done");
    await expect.poll(() => pictures.count(), { timeout: 40_000 }).toBe(2);
    await expect.poll(() => shownNumber(header)).toBe(before - 2 * credits);

    // its result opens from the status
    await app.getByTestId("open-result").click();
    await expect(app.getByTestId("result-prompt").textContent()).resolves.toContain(prompt);
    await app.getByTestId("result-back").click();

    // the ledger as the user reads it: two requests, each charged once (one line per request)
    expect(await spendMovements(app)).toEqual(["charge", "charge"]);
    expect(await shownNumber(app.getByTestId("balance-available"))).toBe(before - 2 * credits);
    expect(await shownNumber(app.getByTestId("balance-held"))).toBe(0);
  });
});
