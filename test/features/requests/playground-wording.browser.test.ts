import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { translate } from "../../../src/platform/i18n/i18n";
import { pageShot, playgroundSuite } from "../../support/browser-suite";
import type { ChatPage } from "../../support/chromium";

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
    // this request's panel (the file's other tests may have left panels of their own in this chat)
    const panel = await chat.waitForBot(`Description: ${prompt}`);
    // one picture is "1 image", not "1 images"
    await panel.locator(".inline-keyboard button", { hasText: /🔢 1 image(?!s)/ }).waitFor();
    if (options.panelShot) await shot(chat, options.panelShot);
    const before = await chat.countPhotos();
    await panel.locator(".inline-keyboard button", { hasText: /^✅ Confirm/ }).click();
    await options.whileWaiting?.();
    return chat.waitForPhoto(before);
  }

  test("the status says how long such a request usually takes, from the bot's own history", async () => {
    const chat = await openAs("Alex");
    // the first picture of its model: the document gives images no typical time, so nothing is said yet
    await makeImage(chat, "a red lighthouse at dusk", { panelShot: "image-count" });
    // the next one: its model's median, on the status while it waits
    // every text the status shows is noted: a fast picture may be done before a look at the page
    const shown = await chat.noteBotTexts();
    await makeImage(chat, "a blue boat at dawn");
    const waiting = (await shown()).filter((text) => /⏱ Usually takes about \d+ seconds?\./.test(text));
    expect(waiting.some((text) => /(in the queue|Working on it)/.test(text))).toBe(true);
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

  test("an emoji-only prompt is a description: it gets the panel, not a refusal", async () => {
    const chat = await openAs("Alex");
    // the chat keeps what the file's other tests said (a punctuation prompt's refusal among them)
    const refusals = () => chat.botMessage(translate("en", "cv-prompt-no-words")).count();
    const refusedBefore = await refusals();
    await chat.type("/image 🌅🐈");
    const panel = await chat.waitForBot("🖼 New image\nDescription: 🌅🐈");
    await expect(panel.textContent()).resolves.toContain("🌅🐈");
    expect(await refusals()).toBe(refusedBefore);
    await shot(chat, "prompt-emoji");
  });

  test("a dub sent after a bare /dub comes back naming its file", async () => {
    // not Alex: the file's pictures spend most of Alex's welcome credits
    const chat = await openAs("Morgan");
    await chat.type("/dub");
    await chat.waitForBot("Send the audio or video to dub");
    const audio = readFileSync(new URL("../../../sandbox/simulator/fixtures/audio.mp3", import.meta.url));
    await chat.attach([{ name: "talk.mp3", mimeType: "audio/mpeg", buffer: audio }]);
    await chat.waitForBot("🎙 Dubbing");
    await chat.press(/^✅ Confirm/);
    const result = await chat.waitForBot(/🎙 talk\.mp3/, 40_000);
    await expect(result.textContent()).resolves.toMatch(/Dubbed into English|→ English/);
    await shot(chat, "dub-result-file");
  });
});
