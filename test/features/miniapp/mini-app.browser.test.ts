import type { Locator } from "playwright-core";
import { describe, expect, test } from "vitest";
import { openMiniApp, pageShot, panelShot, playgroundSuite } from "../../support/browser-suite";
import type { ChatPage } from "../../support/chromium";

const shot = (chat: ChatPage, name: string) => panelShot(chat, name, "mini-app");

/** The number a `<Num>` shows (Persian digits on screen, the value in data-value). */
async function shownNumber(locator: Locator): Promise<number> {
  return Number(await locator.getAttribute("data-value"));
}

/**
 * The Mini App driven as a user inside the playground, as Telegram's client
 * opens it: from the chat's menu button, in a panel over the chat, with
 * launch data the stand-in signed with the sandbox's token.
 */
describe("the Mini App inside the playground, in Chromium", () => {
  const suite = playgroundSuite("mini-app");
  const chatAs = (name: string, greeting?: RegExp) =>
    suite.chatAs(name, { size: { width: 400, height: 860 }, ...(greeting ? { greeting } : {}) });
  const openApp = openMiniApp;

  /** `/image <prompt>`, confirmed: the picture once the chat shows it. */
  async function imageInChat(chat: ChatPage, prompt: string): Promise<void> {
    const before = await chat.countPhotos();
    await chat.type(`/image ${prompt}`);
    await chat.waitForBot("🖼 New image");
    await chat.press(/^✅ Confirm/);
    await chat.waitForPhoto(before);
  }

  test("the gallery shows the results the chat received, newest first, each with its prompt", async () => {
    const chat = await chatAs("Alex");
    await imageInChat(chat, "a lighthouse in the fog");
    await imageInChat(chat, "a fox under the snow");
    const app = await openApp(chat);
    const tiles = app.getByTestId("gallery-item");
    await expect.poll(() => tiles.count()).toBe(2);
    // each tile's picture is really loaded, through the signed file links
    for (const tile of await tiles.all()) {
      await expect
        .poll(() => tile.locator("img").evaluate((img: { naturalWidth: number }) => img.naturalWidth))
        .toBeGreaterThan(0);
    }
    await tiles.first().click();
    await expect(app.getByTestId("result-prompt").textContent()).resolves.toContain("a fox under the snow");
    await expect(app.getByTestId("result-cost").textContent()).resolves.toMatch(/\d/);
    await shot(chat, "result");
    await app.getByTestId("result-back").click();
    await app.getByTestId("gallery-grid").waitFor();
    await shot(chat, "gallery");
  });

  test("the composer makes a picture that arrives in the chat and in the gallery, charged once for two quick presses", async () => {
    const chat = await chatAs("Morgan");
    const app = await openApp(chat);
    await app.getByTestId("tab-credits").click();
    const before = await shownNumber(app.getByTestId("balance-available"));
    await app.getByTestId("tab-create").click();
    await app.getByTestId("op-image").click();
    const prompt = "a paper boat on a rainy street";
    await app.getByTestId("prompt").fill(prompt);
    const price = app.getByTestId("price");
    await expect.poll(async () => Number((await price.getAttribute("data-value")) || 0)).toBeGreaterThan(0);
    const credits = await shownNumber(price);
    await shot(chat, "composer");
    // two presses as fast as a thumb makes them
    await app.getByTestId("confirm").dblclick();
    const status = app.getByTestId("compose-status");
    await status.waitFor({ timeout: 20_000 });
    expect(`${await status.getAttribute("data-kind")}: ${await status.textContent()}`).toMatch(/^ok: /);
    const pictures = chat
      .botMessages()
      .filter({ hasText: prompt })
      .filter({ has: chat.page.locator("img") });
    await expect.poll(() => pictures.count(), { timeout: 40_000 }).toBeGreaterThan(0);
    // one generation: one picture with this prompt in the chat (a second would follow within moments), one tile
    await chat.page.waitForTimeout(2_000);
    expect(await pictures.count()).toBe(1);
    await app.getByTestId("tab-gallery").click();
    await app.getByTestId("gallery-grid").waitFor();
    await expect.poll(() => app.getByTestId("gallery-item").count()).toBe(1);
    await app.getByTestId("tab-credits").click();
    await expect.poll(() => shownNumber(app.getByTestId("balance-available"))).toBe(before - credits);
    expect(await shownNumber(app.getByTestId("balance-held"))).toBe(0);
  });

  test("buying in the app: the invoice opens over it, Pay credits the pack once", async () => {
    const chat = await chatAs("Alex");
    const app = await openApp(chat);
    await app.getByTestId("tab-credits").click();
    const before = await shownNumber(app.getByTestId("balance-available"));
    const pack = app.getByTestId("pack").first();
    const packId = await pack.getAttribute("data-pack");
    const total = Number(await pack.getAttribute("data-credits"));
    await app.getByTestId(`buy-${packId}`).click();
    const invoice = chat.page.getByTestId("invoice-form");
    await invoice.waitFor();
    await invoice.getByRole("button", { name: /^Pay/ }).click();
    await chat.page
      .getByTestId("service")
      .filter({ hasText: /You paid/ })
      .first()
      .waitFor();
    await expect
      .poll(() => shownNumber(app.getByTestId("balance-available")), { timeout: 20_000 })
      .toBe(before + total);
    await shot(chat, "credits");
  });

  test("a monthly plan: subscribed from /plans, a month passes with the renewal delivered twice (granted once), cancelled; /balance and the app show it", async () => {
    const chat = await chatAs("Alex");
    await chat.type("/plans");
    await chat.waitForBot("Monthly plans");
    // Telegram sells a subscription by link only: the button opens its payment form, a month's price
    await chat.page
      .getByTestId("invoice-link-button")
      .filter({ hasText: /^Subscribe to plus/ })
      .last()
      .click();
    const form = chat.page.getByTestId("invoice-form");
    await form.getByRole("button", { name: "Subscribe: ⭐️ 250 a month" }).click();
    const started = await chat.waitForBot(/Plan plus: 300 credits added, active until \d{4}-\d{2}-\d{2}/);
    const balanceIn = async (message: Locator) =>
      Number(/Your balance: (\d+) credits/.exec((await message.textContent()) ?? "")?.[1]);
    const afterFirst = await balanceIn(started);

    await chat.page.getByTestId("renew-twice").check();
    await chat.page.getByTestId("renew-subscriptions").click();
    const renewal = `Your balance: ${afterFirst + 300} credits`;
    // both deliveries answered with the same receipt: the credits came once
    await expect.poll(() => chat.botMessages().filter({ hasText: renewal }).count()).toBe(2);
    const receipt = (await chat.botMessage(renewal).textContent()) ?? "";
    const until = /active until (\d{4}-\d{2}-\d{2})/.exec(receipt)?.[1];
    expect(until).toBeDefined();
    await chat.type("/balance");
    await chat.waitForBot(
      new RegExp(`Available: ${afterFirst + 300}[\\s\\S]*📅 Plan plus: renews on ${until}`),
    );
    await pageShot(chat, "plan-renewed", "playground", "playground");

    const app = await openApp(chat);
    await app.getByTestId("tab-credits").click();
    await expect(app.getByTestId("active-plan").textContent()).resolves.toBe(
      `📅 Plan plus: renews on ${until}.`,
    );
    expect(await shownNumber(app.getByTestId("balance-available"))).toBe(afterFirst + 300);
    // a renewing plan is not offered again
    expect(await app.getByTestId("plan").count()).toBe(0);
    await shot(chat, "plan");
    await chat.page.getByTestId("mini-app-close").click();

    await chat.type("/plans");
    await chat.waitForBot(`Plan plus: renews on ${until}`);
    await chat.press("Cancel the plan");
    await chat.waitForBot(`Your plan plus will not renew. It stays active until ${until}.`);
    await chat.type("/balance");
    await chat.waitForBot(`📅 Plan plus: ends on ${until}, not renewed.`);
    // the next month: Telegram charges nothing, and the bot grants nothing
    await chat.page.getByTestId("renew-twice").uncheck();
    await chat.page.getByTestId("renew-subscriptions").click();
    await chat.page.getByTestId("toast").filter({ hasText: "No subscription renewed" }).waitFor();
    await chat.type("/balance");
    await chat.waitForBot(new RegExp(`Available: ${afterFirst + 300}[\\s\\S]*ends on ${until}`));
  }, 90_000);

  test("an admin sees today's numbers equal to /stats", async () => {
    const chat = await chatAs("Morgan");
    await chat.type("/stats");
    const stats = (await (await chat.waitForBot("Statistics")).textContent()) ?? "";
    const users = stats.match(/Users: (\d+) · active in 1 \/ 7 \/ 30 days: (\d+) \/ (\d+) \/ (\d+)/);
    const credits = stats.match(
      /granted (\d+) · sold (\d+) · adjusted (-?\d+) · held now (\d+) · charged (\d+) · refunded (\d+)/,
    );
    const margin = stats.match(/Margin: (-?\d+) credits/);
    if (!users || !credits || !margin) throw new Error(`unexpected /stats text: ${stats}`);
    const app = await openApp(chat);
    await app.getByTestId("tab-admin").click();
    await app.getByTestId("today").waitFor();
    const shown = async (id: string) => shownNumber(app.getByTestId(id));
    expect([
      await shown("stat-users-total"),
      await shown("stat-users-active1"),
      await shown("stat-users-active7"),
      await shown("stat-users-active30"),
    ]).toEqual(users.slice(1, 5).map(Number));
    expect([
      await shown("stat-credits-granted"),
      await shown("stat-credits-sold"),
      await shown("stat-credits-adjusted"),
      await shown("stat-credits-held"),
      await shown("stat-credits-charged"),
      await shown("stat-credits-refunded"),
    ]).toEqual(credits.slice(1, 7).map(Number));
    expect(await shown("stat-margin")).toBe(Number(margin[1]));
    await app.getByTestId("chart-credits").waitFor();
    await shot(chat, "admin");
    await app.getByTestId("today").scrollIntoViewIfNeeded();
    await shot(chat, "admin-today");
  });

  test("Persian is right to left: the app follows the user's language", async () => {
    const chat = await chatAs("Sara");
    const app = await openApp(chat);
    await expect(app.getByTestId("app").getAttribute("data-lang")).resolves.toBe("fa");
    await expect(app.locator("html").getAttribute("dir")).resolves.toBe("rtl");
    await shot(chat, "persian");
  });
});
