/**
 * Walks the README's playground tour in Chromium against a running sandbox,
 * step by step, printing what each step showed and saving a screenshot of
 * each: `npm run sandbox` in one terminal, then
 * `npm run tour -- http://127.0.0.1:8080/playground/ [screenshot dir]`.
 * A release check, not part of CI (the browser tests cover each feature).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ChatPage, openChromium } from "../test/support/chromium";

const [address, shots = "test-results/tour"] = process.argv.slice(2);
if (!address) throw new Error("usage: tsx scripts/walk-tour.ts <playground address> [screenshot dir]");

const browser = await openChromium();
const page = await browser.context.newPage();
await page.goto(address);
const chat = new ChatPage(page);
const said = async (text: string | RegExp, timeout?: number) =>
  ((await (await chat.waitForBot(text, timeout)).textContent()) ?? "").replace(/\s+/g, " ").slice(0, 160);
/** the newest result in the chat: its caption and its buttons */
const lastResult = async () =>
  (
    (await chat
      .botMessages()
      .filter({ has: page.locator('[data-testid="photo"], [data-testid="video"], [data-testid="audio"]') })
      .last()
      .textContent()) ?? ""
  ).replace(/\s+/g, " ");
const step = async (name: string, run: () => Promise<string>) => {
  const started = Date.now();
  const shown = await run();
  await chat.screenshot(join(shots, `${name}.png`));
  process.stdout.write(`${name} (${((Date.now() - started) / 1000).toFixed(1)} s): ${shown}\n`);
};
const menu = async (command: string) => {
  await page.getByTestId("menu").click();
  await page.getByTestId("command-menu").getByText(`/${command}`, { exact: true }).click();
};
const audio = readFileSync(new URL("../sandbox/simulator/fixtures/audio.mp3", import.meta.url));

try {
  await chat.switchUser("Alex");
  await step("1-start", async () => {
    await menu("start");
    return said(/welcome credits|credits are yours/);
  });
  await step("2-image", async () => {
    await menu("image");
    await chat.waitForBot("Describe the image");
    await chat.press("✨ Try the example");
    await chat.waitForBot("🖼 New image");
    const before = await chat.countPhotos();
    await chat.press(/^✅ Confirm/);
    await chat.waitForPhoto(before);
    await said(/Done! ✨/, 30_000);
    return lastResult();
  });
  await step("3-buy", async () => {
    await chat.type("/buy");
    await chat.waitForBot("Choose a pack");
    await chat.press(/^150 \+ 10 bonus credits/);
    const invoice = page.getByTestId("invoice").last();
    await invoice.getByRole("button", { name: /^Pay/ }).click();
    return said(/credits added/);
  });
  await step("4a-edit", async () => {
    await chat.editPicture("make the walls blue");
    await said(/Done! ✨/, 30_000);
    return lastResult();
  });
  await step("4b-dub", async () => {
    await chat.type("/dub");
    await chat.waitForBot("Send the audio or video to dub");
    await chat.attach([{ name: "talk.mp3", mimeType: "audio/mpeg", buffer: audio }]);
    await chat.waitForBot("🎙 Dubbing");
    await chat.press(/^✅ Confirm/);
    await page.locator('[data-from="bot"] [data-testid="audio"]').last().waitFor({ timeout: 60_000 });
    await said(/Done! ✨/, 30_000);
    return lastResult();
  });
  await step("4c-video", async () => {
    await chat.type("/video");
    await chat.waitForBot(/Describe the video/);
    await chat.type("waves rolling onto a beach at sunset");
    await chat.waitForBot("🎬 New video");
    await chat.press(/^✅ Confirm/);
    await page.locator('[data-from="bot"] [data-testid="video"]').last().waitFor({ timeout: 90_000 });
    await said(/Done! ✨/, 30_000);
    return lastResult();
  });
  await step("5-inline", async () => {
    await page.getByRole("button", { name: "👥 General" }).click();
    await page.getByTestId("composer").fill("@media_studio_bot a cat in the snow");
    await page
      .getByTestId("inline-result")
      .filter({ hasText: /Generate image/ })
      .click();
    const placed = page
      .getByTestId("message")
      .filter({ has: page.getByTestId("via-bot") })
      .filter({ hasText: "a cat in the snow" })
      .last();
    const id = await placed.getAttribute("data-message-id");
    const message = page.locator(`[data-testid="message"][data-message-id="${id}"]`);
    await message.getByRole("button", { name: /Confirm/ }).click();
    await message.locator('img[data-testid="photo"]').waitFor({ timeout: 40_000 });
    return ((await message.textContent()) ?? "").replace(/\s+/g, " ");
  });
  await step("6-balance-history-settings-language", async () => {
    await page.getByRole("button", { name: "🤖 Bot" }).click();
    const lines: string[] = [];
    await chat.type("/balance");
    lines.push(await said("Your credits"));
    await chat.type("/history");
    lines.push(await said("Your recent requests"));
    await chat.type("/settings");
    lines.push(await said(/saved settings|Nothing remembered/));
    await chat.type("/language");
    await chat.waitForBot("Choose your language");
    await chat.press(/فارسی/);
    lines.push(await said(/فارسی/));
    await page.getByTestId("menu").click();
    lines.push(
      `menu: ${((await page.getByTestId("command-menu").locator("small").first().textContent()) ?? "").trim()}`,
    );
    await page.getByTestId("menu").click();
    await chat.type("/language");
    await chat.press(/English/);
    lines.push(await said("I will speak English"));
    return lines.join(" | ");
  });
  await step("7-admin-and-group", async () => {
    await chat.switchUser("Morgan");
    const lines: string[] = [];
    await chat.type("/start");
    await said(/credits/);
    await chat.type("/stats");
    const stats = ((await (await chat.waitForBot("Statistics")).textContent()) ?? "").replace(/\s+/g, " ");
    // the tour's prices are the defaults: an operator could launch with them (issue 46)
    const margin = /Margin: (-?[\d,]+) credits/.exec(stats)?.[1];
    if (margin === undefined || Number(margin.replace(/,/g, "")) <= 0 || stats.includes("⚠️")) {
      throw new Error(`the tour should end with a positive margin and no price below cost: ${stats}`);
    }
    lines.push(`margin ${margin}`);
    const alexId = await page
      .getByTestId("user-switcher")
      .locator("option", { hasText: "Alex" })
      .getAttribute("value");
    await chat.type(`/grant ${alexId} 5`);
    await chat.waitForBot("Give 5 credits to");
    await chat.press("✅ Confirm");
    lines.push(await said("Gave 5 credits"));
    await chat.type("/broadcast");
    await chat.waitForBot("Send me the message to broadcast");
    await chat.type("New in the studio: 4K upscales.");
    await chat.waitForBot("Who should get it?");
    await chat.press(/^Everyone/);
    await chat.waitForBot(/Send the message above to/);
    await chat.press(/^✅ Send to/);
    lines.push(await said("Broadcast finished", 30_000));
    await page.getByRole("button", { name: "👥 General" }).click();
    await chat.type("/groupsettings");
    await chat.waitForBot("Settings of Studio group");
    await chat.press(/^✅ Video generation$/);
    lines.push(await said(/Video generation: off/));
    await chat.switchUser("Alex");
    await chat.type("/video");
    lines.push(await said("switched off in this group"));
    await chat.switchUser("Morgan");
    await chat.type("/groupsettings");
    await chat.press(/^🚫 Video generation$/);
    await said(/Video generation: on/);
    await page.getByRole("button", { name: "# Renders" }).click();
    await chat.type("/balance");
    lines.push(`in # Renders: ${await said("Your credits")}`);
    return lines.join(" | ");
  });
  await step("8-mini-app", async () => {
    await chat.switchUser("Alex");
    await page.getByRole("button", { name: "🤖 Bot" }).click();
    await page.getByTestId("menu-app").click();
    await page.locator('[data-testid="mini-app"][data-ready="true"]').waitFor({ timeout: 20_000 });
    const app = page.frameLocator('[data-testid="mini-app-frame"]');
    await app.getByTestId("gallery-grid").waitFor();
    const tiles = await app.getByTestId("gallery-item").count();
    await app.getByTestId("tab-create").click();
    await app.getByTestId("prompt").fill("a lighthouse at dawn");
    const price = app.locator('[data-testid="price"][data-value]:not([data-value=""])');
    await price.waitFor();
    const credits = await price.getAttribute("data-value");
    await app.getByTestId("tab-credits").click();
    const available = await app.getByTestId("balance-available").getAttribute("data-value");
    await page.getByTestId("mini-app-close").click();
    return `gallery: ${tiles} results | a picture costs ${credits} | available ${available}`;
  });
} finally {
  await browser.close();
}
