import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { solidPng } from "../../src/playground/telegram/images";
import { pageShot, playgroundSuite } from "./browser-suite";
import type { ChatPage } from "./chromium";

const shot = (chat: ChatPage, name: string) => pageShot(chat, name);

const picture = (name: string) => ({ name, mimeType: "image/png", buffer: solidPng(640, 480) });

/**
 * What people do first in a media bot, in real Chromium: drop a photo or an
 * audio file, or type what they want, with no command. Each gets an offer, and
 * its button leads through the usual panel to a result that arrives.
 */
describe("the playground: sent without a command", () => {
  const suite = playgroundSuite("playground-sends");
  const openAs = (name: string, greeting?: RegExp) => suite.chatAs(name, greeting ? { greeting } : {});

  test("a photo dropped with no command is offered an edit; the edited picture arrives", async () => {
    const chat = await openAs("Alex");
    await chat.attach([picture("room.png")]);
    await chat.waitForBot("What shall I do with this photo?");
    await shot(chat, "offer-photo");
    await chat.press(/^✏️ Edit it$/);
    await chat.waitForBot("What should change?");
    await chat.type("make the walls blue");
    await chat.waitForBot("✏️ Photo edit");
    const before = await chat.countPhotos();
    await chat.press(/^✅ Confirm/);
    const photo = await chat.waitForPhoto(before);
    await expect.poll(() => photo.textContent()).toContain("walls blue");
  });

  test("an album dropped with no command gets one offer for all its photos", async () => {
    const chat = await openAs("Alex");
    await chat.attach([picture("a.png"), picture("b.png")]);
    await chat.waitForBot("What shall I do with these 2 photos?");
    expect(await chat.botMessages().filter({ hasText: "What shall I do with these" }).count()).toBe(1);
    await shot(chat, "offer-album");
  });

  test("an audio file dropped with no command is offered a dub; the dubbed audio arrives", async () => {
    const chat = await openAs("Morgan");
    const audio = readFileSync(new URL("../../src/simulator/fixtures/audio.mp3", import.meta.url));
    await chat.attach([{ name: "talk.mp3", mimeType: "audio/mpeg", buffer: audio }]);
    await chat.waitForBot("Shall I dub this audio into another language?");
    await shot(chat, "offer-audio");
    await chat.press(/^🎙 Dub it$/);
    await chat.waitForBot("🎙 Dubbing");
    await chat.press(/^✅ Confirm/);
    const result = chat
      .botMessages()
      .filter({ has: chat.page.locator('[data-testid="audio"] audio') })
      .last();
    await result.waitFor({ timeout: 60_000 });
    await expect.poll(() => result.textContent()).toContain("dubbed");
  }, 90_000);

  test("a sentence typed is offered a picture at the remembered options' price; the picture arrives", async () => {
    const chat = await openAs("Alex");
    await chat.type("can you make me a picture of a dog?");
    const offer = await chat.waitForBot("Shall I make a picture of this?");
    await expect.poll(() => offer.textContent()).toMatch(/Price: \d+ credits/);
    expect(await chat.botMessages().filter({ hasText: "I did not understand" }).count()).toBe(0);
    await shot(chat, "offer-text");
    await chat.press(/^🎨 Make a picture$/);
    await chat.waitForBot("🖼 New image");
    const before = await chat.countPhotos();
    await chat.press(/^✅ Confirm/);
    const photo = await chat.waitForPhoto(before);
    await expect.poll(() => photo.textContent()).toContain("a picture of a dog");
  });

  test("Persian: the offer for a typed sentence is in Persian, drawn right to left", async () => {
    const chat = await openAs("Sara", /اعتبار هدیه/);
    await chat.type("یک گربه روی مبل قرمز");
    const offer = await chat.waitForBot("از این متن تصویری بسازم؟");
    expect(await chat.directionOf(offer.locator(".text").first())).toBe("rtl");
    await chat
      .botMessage("از این متن تصویری بسازم؟")
      .getByRole("button", { name: "🎨 تصویر بساز" })
      .waitFor();
    await shot(chat, "offer-text-fa");
  });
});
