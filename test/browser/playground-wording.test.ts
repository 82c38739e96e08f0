import { describe, expect, test } from "vitest";
import { translate } from "../../src/i18n/i18n";
import { pageShot, playgroundSuite } from "./browser-suite";
import type { ChatPage } from "./chromium";

const shot = (chat: ChatPage, name: string) => pageShot(chat, name);

/**
 * What the playground shows of waiting and of the bot's words (issue 37, items
 * 2, 6 and 7), in real headless Chromium: one sandbox and one browser for the file.
 */
describe("the playground's estimates and wording in Chromium", () => {
  const suite = playgroundSuite("wording");
  const openAs = (name: string, greeting?: RegExp) => suite.chatAs(name, greeting ? { greeting } : {});

  async function makeImage(
    chat: ChatPage,
    prompt: string,
    options: { panelShot?: string; whileWaiting?: () => Promise<void> } = {},
  ) {
    await chat.type(`/image ${prompt}`);
    const panel = await chat.waitForBot("🖼 New image");
    // one picture is "1 image", not "1 images"
    await panel.locator(".inline-keyboard button", { hasText: /🔢 1 image(?!s)/ }).waitFor();
    if (options.panelShot) await shot(chat, options.panelShot);
    const before = await chat.countPhotos();
    await chat.press(/^✅ Confirm/);
    await options.whileWaiting?.();
    return chat.waitForPhoto(before);
  }

  test("the status says how long such a request usually takes, from the bot's own history", async () => {
    const chat = await openAs("Alex");
    // the first picture of its model: the document gives images no typical time, so nothing is said yet
    await makeImage(chat, "a red lighthouse at dusk", { panelShot: "image-count" });
    // the next one: its model's median, on the status while it waits
    await makeImage(chat, "a blue boat at dawn", {
      whileWaiting: async () => {
        const status = await chat.waitForBot(/⏱ Usually takes about \d+ seconds?\./);
        await shot(chat, "estimate");
        await expect.poll(() => status.textContent()).toMatch(/(in the queue|Working on it)/);
      },
    });
    // the movements of credits name their request
    await chat.type("/balance");
    const balance = await chat.waitForBot("Latest movements");
    await expect
      .poll(() => balance.textContent())
      .toContain("reserved credits spent on Image generation “a blue boat at dawn”");
    await shot(chat, "balance-movements");
  });

  test("/help is the chat's menu, tappable, with prices, limits, inline mode and the Gallery", async () => {
    const chat = await openAs("Morgan");
    await chat.type("/help");
    const help = await chat.waitForBot("Commands (tap one):");
    for (const text of ["Prices and limits:", "Inline mode:", "🖼 Gallery: the button beside"])
      await expect.poll(() => help.textContent()).toContain(text);
    const links = help.getByTestId("command-link");
    await expect.poll(() => links.allTextContents()).toEqual(expect.arrayContaining(["/buy", "/grant"]));
    await shot(chat, "help");
    // a tap sends the command
    await help
      .getByTestId("command-link")
      .filter({ hasText: /^\/balance$/ })
      .click();
    await chat.waitForBot("Your credits");
  });

  test("Persian: /commands drawn whole in right-to-left text, and the Gallery button in Persian", async () => {
    const chat = await openAs("Sara", /اعتبار هدیه/);
    await expect
      .poll(() => chat.page.getByTestId("menu-app").textContent())
      .toBe(translate("fa", "btn-gallery"));
    await chat.type("/help");
    const help = await chat.waitForBot(translate("fa", "help-commands"));
    // each command, isolated, reads left to right inside the Persian line
    const settings = help.getByTestId("command-link").filter({ hasText: "/settings" });
    await expect.poll(() => settings.textContent()).toBe("/settings");
    await shot(chat, "help-persian");
  });

  test("a prompt of punctuation is refused with a clear message, and nothing is priced", async () => {
    const chat = await openAs("Alex");
    const confirms = chat.page.locator(".inline-keyboard button", { hasText: /Confirm/ });
    const before = await confirms.count();
    await chat.type("/image .");
    await chat.waitForBot(translate("en", "cv-prompt-no-words"));
    expect(await confirms.count()).toBe(before);
    await shot(chat, "prompt-no-words");
  });
});
