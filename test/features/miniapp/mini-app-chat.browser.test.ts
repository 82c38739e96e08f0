import { fileURLToPath } from "node:url";
import type { FrameLocator, Locator } from "playwright-core";
import { describe, expect, test } from "vitest";
import { defaultImageOptions, fitImageOptions } from "../../../src/domain/generations/image-options";
import { promptMaxLength } from "../../../src/domain/generations/params";
import { quote } from "../../../src/domain/generations/quote";
import { createPrices, loadPriceTable } from "../../../src/domain/pricing/prices";
import { imageModels } from "../../../src/platform/media-service/catalog";
import { openMiniApp, panelShot, playgroundSuite } from "../../support/browser-suite";
import type { ChatPage } from "../../support/chromium";

const prices = createPrices(loadPriceTable());
/** a phone's screen, in CSS pixels */
const phone = { width: 390, height: 844 };

const shot = (chat: ChatPage, name: string) => panelShot(chat, name, "mini-app-chat");

/** The number a `<Num>` or a price line carries for machines. */
async function shownNumber(locator: Locator, attribute = "data-value"): Promise<number> {
  return Number(await locator.getAttribute(attribute));
}

/**
 * The Mini App and the chat as one product: Create starts where the chat's
 * panels start, every choice shows its price, the page has one balance, a
 * result sent to the chat says so where the user looks, and a long prompt is
 * never cut silently. Each test has a user of its own state: vitest shuffles them.
 */
describe("the Mini App knows what the chat knows, in Chromium", () => {
  const suite = playgroundSuite("mini-app-chat");
  const chatAs = (name: string, size = phone) => suite.chatAs(name, { size });
  const openApp = openMiniApp;

  async function openCreate(app: FrameLocator): Promise<void> {
    await app.getByTestId("tab-create").click();
    await app.getByTestId("composer").waitFor();
  }

  /** The price line once the quote answered: its price. */
  async function quoted(app: FrameLocator): Promise<number> {
    const price = app.getByTestId("price");
    await expect.poll(async () => Number((await price.getAttribute("data-value")) || 0)).toBeGreaterThan(0);
    return shownNumber(price);
  }

  test("Create starts from the options /settings shows, chosen in the chat", async () => {
    const chat = await chatAs("Alex");
    await chat.type("/image a cat on a windowsill");
    await chat.waitForBot("🖼 New image");
    await chat.press(/^🧠/);
    await chat.waitForBot("Choose a model");
    await chat.press(/^alpha-speed ·/);
    await chat.waitForBot("Model: alpha-speed");
    await chat.press(/^📐/);
    await chat.waitForBot("Choose the aspect ratio");
    await chat.press(/^(✅ )?1:1/);
    await chat.waitForBot("Aspect ratio: 1:1");
    const before = await chat.countPhotos();
    await chat.press(/^✅ Confirm/);
    await chat.waitForPhoto(before);
    await chat.type("/settings");
    await chat.waitForBot(/Image: alpha-speed · 1:1/);

    const app = await openApp(chat);
    await openCreate(app);
    expect(await app.getByTestId("opt-model").inputValue()).toBe("alpha-speed");
    expect(await app.getByTestId("opt-imageSize").inputValue()).toBe("1:1");
    // the chat's words for them, and its line saying these are the saved settings
    await expect(
      app.locator("label", { has: app.getByTestId("opt-imageSize") }).textContent(),
    ).resolves.toContain("Aspect ratio");
    await app.getByTestId("saved-options").waitFor();
    // priced as the chat priced it
    const q = quote(prices, { operation: "image", model: "alpha-speed", numImages: 1 });
    expect(await quoted(app)).toBe(q.ok ? q.credits : Number.NaN);
    await shot(chat, "composer-remembered");
  });

  test("every model, resolution and count shows its price, as the chat's pickers do", async () => {
    const chat = await chatAs("Morgan");
    const app = await openApp(chat);
    await openCreate(app);
    await quoted(app);
    const models = app.getByTestId("opt-model").locator("option");
    await expect.poll(() => models.first().getAttribute("data-price")).not.toBeNull();
    const start = defaultImageOptions();
    const expected = imageModels.map((model) => {
      const q = quote(prices, { operation: "image", ...fitImageOptions(start, model) });
      return q.ok ? `${model} · ${q.credits} cr` : model;
    });
    expect(await models.allTextContents()).toEqual(expected);

    // a model with several resolutions and outputs: each of those priced too
    await app.getByTestId("opt-model").selectOption("gamma-5-pro");
    await expect
      .poll(() => app.getByTestId("opt-resolution").locator("option").allTextContents())
      .toEqual(
        ["1K", "2K", "4K"].map((r) => {
          const q = quote(prices, { operation: "image", model: "gamma-5-pro", resolution: r, numImages: 1 });
          return `${r} · ${q.ok ? q.credits : Number.NaN} cr`;
        }),
      );
    await app.getByTestId("opt-numImages").selectOption("2");
    await expect
      .poll(() => app.getByTestId("opt-model").locator('option[value="gamma-5-pro"]').textContent())
      .toBe(
        `gamma-5-pro · ${(() => {
          const q = quote(prices, {
            operation: "image",
            model: "gamma-5-pro",
            resolution: "1K",
            numImages: 2,
          });
          return q.ok ? q.credits : Number.NaN;
        })()} cr`,
      );
    await shot(chat, "composer-prices");
  });

  test("after Confirm the header, the form and the credits tab show one balance", async () => {
    const chat = await chatAs("Sara");
    const app = await openApp(chat);
    const header = app.getByTestId("header-balance").locator("bdi");
    await openCreate(app);
    await app.getByTestId("prompt").fill("یک فانوس دریایی در مه");
    const price = await quoted(app);
    const before = await shownNumber(header);
    const line = app.getByTestId("price");
    expect(await shownNumber(line, "data-available")).toBe(before);

    await app.getByTestId("confirm").click();
    const status = app.getByTestId("compose-status");
    await status.waitFor({ timeout: 20_000 });
    expect(await status.getAttribute("data-kind")).toBe("ok");
    await expect.poll(() => shownNumber(header)).toBe(before - price);
    expect(await shownNumber(line, "data-available")).toBe(before - price);
    // what the user reads: the balance in the price line is the header's, in Persian digits
    expect(await line.textContent()).toContain(new Intl.NumberFormat("fa").format(before - price));
    await shot(chat, "composer-balance");
    await app.getByTestId("tab-credits").click();
    const credits = app.getByTestId("balance-available");
    await credits.waitFor();
    expect(await shownNumber(credits)).toBe(before - price);
    expect(await shownNumber(header)).toBe(before - price);
  });

  test("on a 390 px phone, 'Sent to the chat.' shows where the user pressed", async () => {
    const chat = await chatAs("Morgan");
    const before = await chat.countPhotos();
    await chat.type("/image a tall lighthouse on a cliff");
    await chat.waitForBot("🖼 New image");
    await chat.press(/^✅ Confirm/);
    await chat.waitForPhoto(before);

    const app = await openApp(chat);
    await app.getByTestId("gallery-item").first().click();
    const picture = app.getByTestId("result-photo").locator("img");
    await expect
      .poll(() => picture.evaluate((img: { naturalWidth: number }) => img.naturalWidth))
      .toBeGreaterThan(0);
    // the user scrolls just far enough to reach the button, which sits at the bottom of the screen
    const resend = app.getByTestId("action-resend");
    await resend.evaluate((button: { scrollIntoView(options: { block: string }): void }) =>
      button.scrollIntoView({ block: "end" }),
    );
    const photos = await chat.countPhotos();
    await resend.click();
    const notice = app.getByTestId("result-notice");
    await expect(notice.textContent()).resolves.toBe("Sent to the chat.");
    const frame = await chat.page.getByTestId("mini-app-frame").boundingBox();
    await expect
      .poll(async () => {
        const box = await notice.boundingBox();
        return Boolean(
          box &&
            frame &&
            box.y >= frame.y &&
            box.y + box.height <= Math.min(frame.y + frame.height, phone.height),
        );
      })
      .toBe(true);
    await shot(chat, "resent-phone");
    // the result's "Make again" still sets the composer, over where it starts
    await app.getByTestId("action-again").click();
    await expect.poll(() => app.getByTestId("prompt").inputValue()).toBe("a tall lighthouse on a cliff");
    // and it was sent: one more picture in the chat
    await chat.page.getByTestId("mini-app-close").click();
    await chat.waitForPhoto(photos);
  });

  test("a 5,000-character paste is kept whole, counted and refused visibly until it fits", async () => {
    const chat = await chatAs("Morgan");
    const app = await openApp(chat);
    await openCreate(app);
    const text = "a lighthouse at dusk, ".repeat(250).slice(0, 5000);
    await app.getByTestId("prompt").focus();
    await chat.page.keyboard.insertText(text);
    expect((await app.getByTestId("prompt").inputValue()).length).toBe(5000);
    const count = app.getByTestId("prompt-count");
    expect(await shownNumber(count)).toBe(text.trim().length);
    const warning = app.getByTestId("prompt-too-long");
    await expect(warning.textContent()).resolves.toBe(
      `This description has ${text.trim().length.toLocaleString("en")} characters; at most ${promptMaxLength.toLocaleString("en")} fit. Please shorten it.`,
    );
    await quoted(app);
    expect(await app.getByTestId("confirm").isDisabled()).toBe(true);
    await shot(chat, "prompt-too-long");

    await app.getByTestId("prompt").fill(text.slice(0, promptMaxLength));
    await warning.waitFor({ state: "detached" });
    await expect.poll(() => app.getByTestId("confirm").isDisabled()).toBe(false);
    // dubbing says the chat's limit (longer than 5 minutes is dubbed in parts)
    await app.getByTestId("op-dub").click();
    await expect(app.getByTestId("composer").textContent()).resolves.toContain("(up to 60 minutes)");
  });

  test("dubbing shows no price before its file: priced once the file is added and measured", async () => {
    const chat = await chatAs("Alex");
    const app = await openApp(chat);
    await openCreate(app);
    await quoted(app);
    await app.getByTestId("op-dub").click();
    const price = app.getByTestId("price");
    // a dub is priced by its length: no number, not even the picture's price left over
    await expect
      .poll(() => price.textContent())
      .toMatch(/^💳 Price: shown once the file is added \(balance: \d+\)$/);
    expect(await price.getAttribute("data-value")).toBe("");
    await expect(app.getByTestId("confirm").textContent()).resolves.toBe("✅ Confirm");
    expect(await app.getByTestId("confirm").isDisabled()).toBe(true);
    await shot(chat, "dub-before-file");

    const audio = fileURLToPath(new URL("../../../sandbox/simulator/fixtures/audio.mp3", import.meta.url));
    await app.getByTestId("dub-file-input").setInputFiles(audio);
    await app.getByTestId("attached").waitFor();
    expect(await quoted(app)).toBeGreaterThan(0);
    await expect(price.textContent()).resolves.toMatch(/credits/);
  });
});
