import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { pageShot, playgroundSuite } from "../../support/browser-suite";
import type { ChatPage } from "../../support/chromium";
import { speechLike } from "../../support/media-files";

/** the part of HTMLMediaElement the test reads (the project's TypeScript has no DOM types) */
interface MediaElement {
  readyState: number;
  duration: number;
  addEventListener(type: string, listener: () => void, options: { once: boolean }): void;
}

const shot = (chat: ChatPage, name: string) => pageShot(chat, name);

/**
 * The playground in real headless Chromium: one sandbox and one browser for
 * the file, one page (and one cast member) per flow.
 */
describe("the playground page in Chromium", () => {
  const suite = playgroundSuite("playground");
  const openAs = (name: string, greeting?: RegExp) => suite.chatAs(name, greeting ? { greeting } : {});

  test("image: /start, /image, a prompt, option buttons, confirm, and the picture shows", async () => {
    const chat = await openAs("Alex");
    await chat.type("/image");
    await chat.waitForBot("Describe the image");
    await chat.type("a red lighthouse at dusk");
    await chat.waitForBot("🖼 New image");
    await chat.press(/^📐/);
    await chat.waitForBot("Choose the aspect ratio");
    await chat.press(/^(✅ )?16:9/);
    await chat.waitForBot("Aspect ratio: 16:9");
    const before = await chat.countPhotos();
    await chat.press(/^✅ Confirm/);
    const photo = await chat.waitForPhoto(before);
    await expect.poll(() => photo.textContent()).toContain("lighthouse");
    await chat.screenshot(join(process.cwd(), "test-results", "playground", "image.png"));
    // the README shows this one; refreshed on request or when missing
    const readmeShot = join(process.cwd(), "docs", "playground.png");
    if (process.env.UPDATE_SCREENSHOTS || !existsSync(readmeShot)) await chat.screenshot(readmeShot);
  });

  test("dubbing: an attached 7-minute audio file is dubbed in 2 parts; one audio of its length comes back and plays", async () => {
    const chat = await openAs("Morgan");
    // 7 minutes cost more than the welcome credits
    await chat.buyFirstPack();
    await chat.type("/dub");
    await chat.waitForBot("Send the audio or video to dub");
    const talk = join(await mkdtemp(join(tmpdir(), "msb-playground-dub-")), "talk.mp3");
    await speechLike(talk, 420);
    await chat.attach([{ name: "talk.mp3", mimeType: "audio/mpeg", buffer: await readFile(talk) }]);
    await chat.waitForBot(/Length: 7 min 0 s, dubbed in 2 parts/);
    // the languages' keyboard on a phone-sized screen: labels wrap between words, never inside one
    await chat.page.setViewportSize({ width: 320, height: 800 });
    await chat.press(/^🗣/);
    await chat.waitForBot("Dub into which language?");
    await chat.botMessage("Dub into which language?").getByRole("button", { name: "Portuguese" }).waitFor();
    expect(await chat.labelsBrokenMidWord()).toEqual([]);
    await shot(chat, "dub-languages");
    await chat.page.setViewportSize({ width: 430, height: 900 });
    await chat.press(/^(✓ )?English$/);
    await chat.waitForBot(/Dub into: English/);
    await chat.press(/^✅ Confirm/);
    const result = chat
      .botMessages()
      .filter({ has: chat.page.locator('[data-testid="audio"] audio') })
      .last();
    await result.waitFor({ timeout: 90_000 });
    // the browser reads the file's length: a real, playable audio file arrived
    const duration = await result
      .locator("audio")
      .evaluate(
        (audio: MediaElement) =>
          new Promise<number>((resolve) =>
            audio.readyState >= 1
              ? resolve(audio.duration)
              : audio.addEventListener("loadedmetadata", () => resolve(audio.duration), { once: true }),
          ),
      );
    expect(Math.abs(duration - 420)).toBeLessThan(1);
    await expect.poll(() => result.textContent()).toContain("dubbed-en.mp3");
    await shot(chat, "dub");
  }, 150_000);

  test("edit: an attached photo and a description make an edited picture", async () => {
    const chat = await openAs("Morgan");
    const photo = await chat.editPicture("make the walls blue");
    await expect.poll(() => photo.textContent()).toContain("walls blue");
    await shot(chat, "edit");
  });

  test("people and places: Sara is answered in Persian; a forum topic gets its own answers", async () => {
    const chat = await openAs("Sara", /اعتبار هدیه/);
    await chat.page.getByRole("button", { name: "# Renders" }).click();
    await chat.page.getByTestId("menu").click();
    await chat.page.getByTestId("command-menu").getByText("/help", { exact: true }).click();
    const answer = await chat.waitForBot(/\/image/);
    await shot(chat, "group-topic");
    // the answer belongs to the topic: General does not show it
    await chat.page.getByRole("button", { name: "👥 General" }).click();
    await answer.waitFor({ state: "detached" });
  });

  test("buying: the invoice is drawn with its price and Pay; paying goes through pre-checkout and the balance grows", async () => {
    const chat = await openAs("Alex");
    await chat.type("/buy");
    const packs = await chat.waitForBot("Choose a pack of credits");
    const before = Number(/Your balance: (\d+)/.exec((await packs.textContent()) ?? "")?.[1]);
    await chat.press(/credits · \d+ ⭐/);
    const invoice = chat.page.getByTestId("invoice").last();
    await invoice.waitFor();
    await expect.poll(() => invoice.textContent()).toMatch(/credits.*⭐️ \d+/s);
    await shot(chat, "invoice");
    // a double click pays once: one payment form per invoice
    await invoice.getByRole("button", { name: /^Pay ⭐️ \d+$/ }).dblclick();
    await chat.page
      .getByTestId("service")
      .filter({ hasText: /You paid ⭐️ \d+/ })
      .last()
      .waitFor();
    const paid = await chat.waitForBot(/credits added/);
    const [, added, after] =
      /⭐ (\d+) credits added\. Your balance: (\d+)/.exec((await paid.textContent()) ?? "") ?? [];
    expect(Number(added)).toBeGreaterThan(0);
    expect(Number(after)).toBe(before + Number(added));
    await expect.poll(() => invoice.getByRole("button").textContent()).toBe("✓ Paid");
    expect(
      await chat
        .botMessages()
        .filter({ hasText: /credits added/ })
        .count(),
    ).toBe(1);
    await shot(chat, "paid");
  });

  test("inline mode: @bot and a description in the group, a result picked, Confirm, and the picture replaces it", async () => {
    const chat = await openAs("Alex");
    await chat.page.getByRole("button", { name: "👥 General" }).click();
    const message = await chat.placeInline("a cat on a red sofa", () => shot(chat, "inline-results"));
    await message.getByRole("button", { name: /Confirm/ }).click();
    // the same message turns into the picture, made for the one who placed it
    await message.locator('img[data-testid="photo"]').waitFor({ timeout: 40_000 });
    await expect.poll(() => message.textContent()).toContain("a cat on a red sofa");
    await expect.poll(() => chat.page.getByTestId("composer").inputValue()).toBe("");
    await shot(chat, "inline-placed");
  });

  test("group settings: the group's owner switches video off and a member is refused it; menus follow the scope", async () => {
    const chat = await openAs("Morgan");
    await chat.page.getByRole("button", { name: "👥 General" }).click();
    await chat.page.getByTestId("menu").click();
    const ownerMenu = chat.page.getByTestId("command-menu");
    await ownerMenu.getByText("/groupsettings", { exact: true }).waitFor();
    expect(await ownerMenu.getByText("/buy", { exact: true }).count()).toBe(0);
    await ownerMenu.getByText("/groupsettings", { exact: true }).click();
    await chat.waitForBot("Settings of Studio group");
    await chat.press(/^✅ Video generation$/);
    await chat.waitForBot(/🚫 Video generation: off/);
    await shot(chat, "group-settings");
    await chat.switchUser("Alex");
    await chat.page.getByTestId("menu").click();
    const memberMenu = chat.page.getByTestId("command-menu");
    await memberMenu.getByText("/video", { exact: true }).waitFor();
    expect(await memberMenu.getByText("/groupsettings", { exact: true }).count()).toBe(0);
    await memberMenu.getByText("/video", { exact: true }).click();
    await chat.waitForBot("Video generation is switched off in this group");
    await chat.switchUser("Morgan");
    await chat.type("/groupsettings");
    await chat.press(/^🚫 Video generation$/);
    await chat.waitForBot(/✅ Video generation: on/);
  });

  test("Persian is drawn right to left: the bot's bubbles, its buttons and the command menu", async () => {
    const chat = await openAs("Sara", /اعتبار هدیه/);
    await chat.type("/image");
    await chat.waitForBot("تصویری را که می‌خواهید");
    await chat.type("یک گربه روی مبل قرمز");
    const options = await chat.waitForBot(/🖼.*گربه روی مبل/s);
    expect(await chat.directionOf(options.locator(".text").first())).toBe("rtl");
    const persianKey = options.locator(".inline-keyboard .key").filter({ hasText: /[\u0600-\u06FF]/ });
    expect(await chat.directionOf(persianKey.first())).toBe("rtl");
    const mine = chat.page.locator('[data-testid="message"][data-from="user"]').last();
    expect(await chat.directionOf(mine.locator(".text"))).toBe("rtl");
    await chat.page.getByTestId("menu").click();
    const description = chat.page.getByTestId("command-menu").locator("small").first();
    await description.waitFor();
    expect(await chat.directionOf(description)).toBe("rtl");
    await shot(chat, "persian");
    // an English bubble stays left to right
    await chat.switchUser("Alex");
    await chat.type("/balance");
    const english = await chat.waitForBot("Your credits");
    expect(await chat.directionOf(english.locator(".text").first())).toBe("ltr");
  });

  test("a result: one set of action buttons, the chat at its very end, labels wrapped at words", async () => {
    const chat = await openAs("Alex");
    await chat.type("/image");
    await chat.waitForBot("Describe the image");
    await chat.type("a blue bicycle against a white wall");
    await chat.waitForBot("🖼 New image");
    const before = await chat.countPhotos();
    await chat.press(/^✅ Confirm/);
    await chat.waitForPhoto(before);
    const againAfterPrompt = `(() => {
      const all = [...document.querySelectorAll('[data-testid="message"]')];
      const prompt = all.findLastIndex((m) => m.textContent.includes('a blue bicycle against a white wall') && m.dataset.from === 'user');
      return all.slice(prompt + 1).flatMap((m) => [...m.querySelectorAll('.inline-keyboard .key')]).filter((k) => /Again/.test(k.textContent)).length;
    })()`;
    await expect.poll(() => chat.page.evaluate(againAfterPrompt), { timeout: 20_000 }).toBe(1);
    // nothing adds a second set a moment later
    await chat.page.waitForTimeout(1500);
    expect(await chat.page.evaluate(againAfterPrompt)).toBe(1);
    await expect.poll(() => chat.distanceFromEnd()).toEqual({ gap: 0, lastButtonHidden: 0 });
    expect(await chat.labelsBrokenMidWord()).toEqual([]);
    await shot(chat, "result-actions");
  });
});
