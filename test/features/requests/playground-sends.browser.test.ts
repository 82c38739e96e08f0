import { readFileSync } from "node:fs";
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { solidPng } from "../../../sandbox/playground/telegram/images";
import { isPublicAddress } from "../../../src/platform/links/public-address";
import { pageShot, playgroundSuite } from "../../support/browser-suite";
import type { ChatPage } from "../../support/chromium";
import { type HttpsFiles, serveBytes, startHttpsFiles } from "../../support/https-files";

/** The page with `focus` (the offer) in view: a picture loading late can leave the list scrolled above it. */
const shot = async (chat: ChatPage, name: string, focus?: Locator) => {
  await focus?.scrollIntoViewIfNeeded();
  await pageShot(chat, name);
};

/**
 * Does `act`, then waits for a bot message with `text` newer than those there
 * before: the cast's chats keep their history across the file's tests.
 */
async function answerTo(chat: ChatPage, text: string, act: () => Promise<unknown>): Promise<Locator> {
  const matching = chat.botMessages().filter({ hasText: text });
  const before = await matching.count();
  await act();
  await expect.poll(() => matching.count(), { timeout: 20_000 }).toBeGreaterThan(before);
  return matching.last();
}

const picture = (name: string) => ({ name, mimeType: "image/png", buffer: solidPng(640, 480) });

/**
 * What people do first in a media bot, in real Chromium: drop a photo or an
 * audio file, or type what they want, with no command. Each gets an offer, and
 * its button leads through the usual panel to a result that arrives.
 */
describe("the playground: sent without a command", () => {
  // links pasted into the chat are read from this server: its certificate trusted, its address allowed
  let files: HttpsFiles;
  beforeAll(async () => {
    files = await startHttpsFiles();
    const audio = readFileSync(new URL("../../../sandbox/simulator/fixtures/audio.mp3", import.meta.url));
    files.route("/podcast/episode12.mp3", serveBytes(audio, "audio/mpeg"));
    files.route("/photos/harbour.png", serveBytes(solidPng(640, 480), "image/png"));
  });
  afterAll(async () => files?.close());
  const suite = playgroundSuite("playground-sends", () => ({
    linkProbe: { ca: files.ca, allowAddress: (a) => a === "127.0.0.1" || isPublicAddress(a) },
  }));
  const openAs = (name: string, greeting?: RegExp) => suite.chatAs(name, greeting ? { greeting } : {});

  test("a photo dropped with no command is offered an edit; the edited picture arrives", async () => {
    const chat = await openAs("Alex");
    const offer = await answerTo(chat, "What shall I do with this photo?", () =>
      chat.attach([picture("room.png")]),
    );
    await expect.poll(() => offer.textContent()).toMatch(/Price: \d+ credits \(balance: \d+\)/);
    await shot(chat, "offer-photo", offer);
    await answerTo(chat, "What should change?", () =>
      offer.locator(".inline-keyboard button", { hasText: /^✏️ Edit it$/ }).click(),
    );
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
    const audio = readFileSync(new URL("../../../sandbox/simulator/fixtures/audio.mp3", import.meta.url));
    // each step waits for its own new message and presses its buttons: the chat may hold an
    // earlier offer and panel of the file's other tests (the order is shuffled)
    const offer = await answerTo(chat, "Shall I dub this audio into another language?", () =>
      chat.attach([{ name: "talk.mp3", mimeType: "audio/mpeg", buffer: audio }]),
    );
    await shot(chat, "offer-audio");
    const panel = await answerTo(chat, "🎙 Dubbing", () =>
      offer.locator(".inline-keyboard button", { hasText: /^🎙 Dub it$/ }).click(),
    );
    const results = chat.botMessages().filter({ has: chat.page.locator('[data-testid="audio"] audio') });
    const before = await results.count();
    await panel.locator(".inline-keyboard button", { hasText: /^✅ Confirm/ }).click();
    await expect.poll(() => results.count(), { timeout: 60_000 }).toBeGreaterThan(before);
    await expect.poll(() => results.last().textContent()).toContain("dubbed");
  }, 90_000);

  test("a sentence typed is offered a picture or a video, each priced; the picture arrives", async () => {
    const chat = await openAs("Alex");
    const offer = await answerTo(chat, "Shall I make a picture or a video of this?", () =>
      chat.type("can you make me a picture of a dog?"),
    );
    await expect.poll(() => offer.textContent()).toMatch(/Price: \d+ credits/);
    await expect.poll(() => offer.textContent()).toMatch(/🎬 A video \(.+, \d+ s\): \d+ credits/);
    await offer.getByRole("button", { name: "🎨 Make a picture" }).waitFor();
    await offer.getByRole("button", { name: "🎬 Make a video" }).waitFor();
    expect(await chat.botMessages().filter({ hasText: "I did not understand" }).count()).toBe(0);
    await shot(chat, "offer-text", offer);
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
    const offer = await chat.waitForBot("از این متن تصویر بسازم یا ویدیو؟");
    expect(await chat.directionOf(offer.locator(".text").first())).toBe("rtl");
    await offer.getByRole("button", { name: "🎨 تصویر بساز" }).waitFor();
    await offer.getByRole("button", { name: "🎬 ویدیو بساز" }).waitFor();
    await shot(chat, "offer-text-fa");
  });

  test("an audio link pasted is read: a dub offer with its price, not a picture prompt", async () => {
    const chat = await openAs("Morgan");
    const offer = await answerTo(chat, "Shall I dub this audio into another language?", () =>
      chat.type(`${files.url}/podcast/episode12.mp3`),
    );
    await expect.poll(() => offer.textContent()).toMatch(/Price: (up to )?\d+ credits.*\(balance: \d+\)/);
    expect(await chat.botMessages().filter({ hasText: "Shall I make a picture" }).count()).toBe(0);
    await shot(chat, "offer-link-audio", offer);
    // the length was read with the offer: the panel shows it
    const panel = await answerTo(chat, "🎙 Dubbing", () => chat.press(/^🎙 Dub it$/));
    await expect.poll(() => panel.textContent()).toMatch(/Length: 0:0\d/);
    await chat.type("/cancel");
    await chat.waitForBot("Cancelled");
  });

  test("an image link pasted gets the photo's offers, priced; Edit asks what to change", async () => {
    const chat = await openAs("Alex");
    const offer = await answerTo(chat, "What shall I do with this photo?", () =>
      chat.type(`${files.url}/photos/harbour.png`),
    );
    await expect.poll(() => offer.textContent()).toMatch(/Price: \d+ credits \(balance: \d+\)/);
    await offer.getByRole("button", { name: "🖼 Make a new picture from it" }).waitFor();
    await shot(chat, "offer-link-image", offer);
    await answerTo(chat, "What should change?", () =>
      offer.locator(".inline-keyboard button", { hasText: /^✏️ Edit it$/ }).click(),
    );
    await chat.type("/cancel");
    await chat.waitForBot("Cancelled");
  });

  test("a 5,000-character message typed (sent as two, as Telegram's clients do) gets one answer", async () => {
    const chat = await openAs("Alex");
    const long = "a lighthouse on a cliff in a storm, waves breaking ".repeat(100).slice(0, 5000).trim();
    const offers = () => chat.botMessages().filter({ hasText: "Shall I make a picture" }).count();
    const offersBefore = await offers();
    const told = await answerTo(chat, "at most 2000 fit", () => chat.type(long));
    // both parts, joined: the whole message's length
    await expect.poll(() => told.textContent()).toMatch(/This description has 4,?99\d characters/);
    await shot(chat, "offer-split-text", told);
    expect(await chat.botMessages().filter({ hasText: "at most 2000 fit" }).count()).toBe(1);
    expect(await offers()).toBe(offersBefore);
  });
});
