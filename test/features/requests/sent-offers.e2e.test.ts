import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { defaultImageOptions, imageQuote } from "../../../src/domain/generations/image-options";
import { quote } from "../../../src/domain/generations/quote";
import type { Generation } from "../../../src/domain/generations/types";
import { defaultVideoOptions } from "../../../src/domain/generations/video-options";
import { createPrices, loadPriceTable, type PriceQuote } from "../../../src/domain/pricing/prices";
import { createPreferences, rememberedOf } from "../../../src/features/preferences";
import { processedUpdates } from "../../../src/platform/db/schema";
import { isPublicAddress } from "../../../src/platform/links/public-address";
import {
  eventually,
  generationIn,
  type Harness,
  redisUrl,
  startedUser,
  startHarness,
} from "../../support/harness";
import { type HttpsFiles, serveBytes, silentWav, startHttpsFiles } from "../../support/https-files";
import { buttons, byData, hasData, plain, says } from "../../support/messages";

/**
 * What a private chat sends without a command, end to end (the Telegram
 * stand-in, the simulator, real Postgres and Redis): photos, albums, audio,
 * voice, video notes and text are offered what can be done with them, and a
 * tap enters the usual conversation with them already in it.
 */

const WELCOME = 100;
const fixture = (name: string) =>
  readFileSync(new URL(`../../../sandbox/simulator/fixtures/${name}`, import.meta.url));

const panel = hasData("cv:ok");
const photoOffer = says("What shall I do with");
const textOffer = says("Shall I make a picture or a video of this?");
const offerOf = (action: "e" | "r" | "d" | "i" | "v", sent: { message_id: number }) =>
  `so:${action}:${sent.message_id}`;

const prices = createPrices(loadPriceTable());
const cost = (quote: PriceQuote) => (quote.ok ? quote.credits : Number.NaN);
/** what an edit of a 16:9 photo costs with no remembered options */
const editCost = cost(imageQuote(prices, defaultImageOptions({ width: 1280, height: 720 })));

describe("offers for what is sent without a command", () => {
  let h: Harness;
  let redis: Redis;
  let files: HttpsFiles;

  beforeAll(async () => {
    files = await startHttpsFiles();
    files.route("/podcast/episode12.wav", serveBytes(silentWav(95)));
    files.route("/cat.png", serveBytes(Buffer.from("not really a png, only its type"), "image/png"));
    files.route("/article", serveBytes(Buffer.from("<html><p>a lighthouse</p></html>"), "text/html"));
    // the bot reads the test's server with its certificate, 127.0.0.1 taken for a public address
    h = await startHarness({
      linkProbe: { ca: files.ca, allowAddress: (a) => a === "127.0.0.1" || isPublicAddress(a) },
    });
    redis = new Redis(redisUrl);
  });
  afterAll(async () => {
    await redis?.quit();
    await h?.stop();
    await files?.close();
  });

  /** Presses the button with this data on `message`; resolves with the bot's answer to the press. */
  async function tap(user: TestUser, data: string, message: BotMessage) {
    const id = await user.press(byData(data), { message });
    return user.waitForAnswer(id);
  }

  async function generations(user: TestUser): Promise<Generation[]> {
    return h.runtime.generations.recent(user.id, 10);
  }

  async function expectPaidOnce(user: TestUser) {
    const all = await generations(user);
    expect(all).toHaveLength(1);
    const [g] = all;
    expect(g!.charged).toBe(g!.price);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: WELCOME - g!.price, held: 0 });
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
  }

  /** Every update so far was handled to the end (the journal has none pending). */
  async function allHandled(): Promise<void> {
    await eventually(async () => {
      const pending = await h.db.db.$count(processedUpdates, eq(processedUpdates.state, "pending"));
      return pending === 0 ? true : undefined;
    });
  }

  test("a photo with a caption: Edit, pressed twice, starts one edit at its panel; Confirm twice charges once", async () => {
    const user = await startedUser(h);
    const sent = await user.sendPhoto({ width: 1280, height: 720, caption: "make the sky purple" });
    const offer = await user.waitFor(photoOffer);
    expect(offer.reply_to_message?.message_id).toBe(sent.message_id);
    expect(plain(offer.text)).toContain("What shall I do with this photo?");
    expect(plain(offer.text)).toContain("Description: make the sky purple");
    expect(plain(offer.text)).toContain(`Price: ${editCost} credits (balance: 100)`);
    expect(buttons(offer).map((b) => b.text)).toEqual(["✏️ Edit it", "🖼 Make a new picture from it"]);

    // two presses before the bot answers either: the second finds the offer taken
    const first = await user.press(byData(offerOf("e", sent)), { message: offer });
    const second = await user.press(byData(offerOf("e", sent)), { message: offer });
    expect((await user.waitForAnswer(first)).text).toBeUndefined();
    expect((await user.waitForAnswer(second)).text).toBe(
      "This offer is no longer active. Please send it again.",
    );
    // the caption is the description: straight to the panel, the photo's proportions kept
    const summary = await user.waitFor((m) => panel(m) && says("✏️ Photo edit")(m));
    expect(plain(summary.text)).toContain("Pictures: 1");
    expect(plain(summary.text)).toContain("Aspect ratio: 16:9");
    expect(user.messages().filter((m) => panel(m))).toHaveLength(1);
    // the offer lost its buttons
    await eventually(async () =>
      buttons(user.messages().find((m) => m.message_id === offer.message_id)!).length === 0
        ? true
        : undefined,
    );

    await user.press(byData("cv:ok"), { message: summary });
    await user.press(byData("cv:ok"), { message: summary });
    const result = await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    // the result answers the photo that was sent
    expect(result.reply_to_message?.message_id).toBe(sent.message_id);
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({ operation: "edit", prompt: "make the sky purple" });
    await expectPaidOnce(user);
  });

  test("an album of four: one offer for all, counting them; a new picture from them asks what to make, in the user's ratio", async () => {
    const user = await startedUser(h);
    const album = await user.sendAlbum([
      { width: 1280, height: 720 },
      { width: 1280, height: 720 },
      { width: 1280, height: 720 },
      { width: 1280, height: 720 },
    ]);
    // edited as the album's photos arrive: the fourth is one more than an edit takes
    const offer = await user.waitFor(says("I will use the first 3"));
    expect(plain(offer.text)).toContain("What shall I do with these 3 photos?");
    await allHandled();
    expect(user.messages().filter(photoOffer)).toHaveLength(1);
    expect(buttons(offer).map((b) => b.text)).toEqual(["✏️ Edit them", "🖼 Make a new picture from them"]);

    await tap(user, offerOf("r", album[0]!), offer);
    const ask = await user.waitFor(says("What picture should I make from it?"));
    await user.send("the same street at night, neon lights");
    const summary = await user.waitFor((m) => panel(m) && says("🖼 New picture from a reference")(m), {
      after: ask,
    });
    expect(plain(summary.text)).toContain("Pictures: 3");
    // a new picture: the default ratio, not the photos' 16:9
    expect(plain(summary.text)).not.toContain("Aspect ratio: 16:9");
    await user.press(byData("cv:ok"), { message: summary });
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const g = await generationIn(h, user.id, "delivered");
    expect((g.params as { images: unknown[] }).images).toHaveLength(3);
    await expectPaidOnce(user);
  });

  test("a voice message offers dubbing with its price; the dub arrives, paid once", async () => {
    const user = await startedUser(h);
    const sent = await user.sendVoice({ bytes: fixture("audio.mp3"), mimeType: "audio/mpeg", duration: 3 });
    const offer = await user.waitFor(hasData(offerOf("d", sent)));
    expect(plain(offer.text)).toContain("Shall I dub this audio into another language?");
    expect(plain(offer.text)).toContain(`Price: ${cost(prices.dub(3))} credits (balance: 100)`);
    await tap(user, offerOf("d", sent), offer);
    const summary = await user.waitFor((m) => panel(m) && says("🎙 Dubbing")(m));
    expect(plain(summary.text)).toContain("Length: 0:03");
    await user.press(byData("cv:ok"), { message: summary });
    await user.waitFor((m) => m.audio !== undefined || m.voice !== undefined, { timeoutMs: 30_000 });
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({ operation: "dub", durationSeconds: 3 });
    await expectPaidOnce(user);
  });

  test("a video note offers dubbing as a video; the tap opens the dubbing panel with it", async () => {
    const user = await startedUser(h, "fa");
    const sent = await user.sendVideoNote({ bytes: fixture("video-1x1-audio.mp4"), duration: 4 });
    const offer = await user.waitFor(hasData(offerOf("d", sent)));
    expect(plain(offer.text)).toContain("این ویدیو را به زبان دیگری دوبله کنم؟");
    expect(buttons(offer).map((b) => b.text)).toEqual(["🎙 دوبله‌اش کن"]);
    await tap(user, offerOf("d", sent), offer);
    const summary = await user.waitFor((m) => panel(m) && says("🎙 دوبله")(m));
    expect(plain(summary.text)).toContain("دوبله به");
  });

  test("text: a picture of it with the remembered options and their price, one tap from Confirm", async () => {
    const user = await startedUser(h);
    const { operation, options } = rememberedOf({
      operation: "image",
      prompt: "-",
      model: "gamma-5-pro",
      imageSize: "1:1",
      resolution: "2K",
      numImages: 2,
    });
    await createPreferences(h.runtime.db).remember(user.id, operation, options);
    const sent = await user.send("can you make me a picture of a dog?");
    const offer = await user.waitFor(textOffer);
    expect(offer.reply_to_message?.message_id).toBe(sent.message_id);
    const text = plain(offer.text);
    expect(text).toContain("Model: gamma-5-pro");
    expect(text).toContain("Aspect ratio: 1:1");
    expect(text).toContain("Your saved settings");
    const price = cost(prices.image("gamma-5-pro", "2K", 2));
    expect(text).toContain(`Price: ${price} credits (balance: 100)`);
    expect(text).not.toContain("I did not understand");

    await tap(user, offerOf("i", sent), offer);
    const summary = await user.waitFor((m) => panel(m) && says("🖼 New image")(m));
    expect(plain(summary.text)).toContain("Description: can you make me a picture of a dog?");
    expect(plain(summary.text)).toContain(`Price: ${price} credits`);
    await user.press(byData("cv:ok"), { message: summary });
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({ operation: "image", model: "gamma-5-pro", numImages: 2 });
    await expectPaidOnce(user);
  });

  test("text in Persian is offered in Persian; text over the prompt limit is told the limit, with nothing to press", async () => {
    const persian = await startedUser(h, "fa");
    await persian.send("یک گربه روی مبل قرمز");
    const offer = await persian.waitFor(says("از این متن تصویر بسازم یا ویدیو؟"));
    expect(buttons(offer).map((b) => b.text)).toEqual(["🎨 تصویر بساز", "🎬 ویدیو بساز"]);

    const user = await startedUser(h);
    await user.send("a dog ".repeat(400));
    const told = await user.waitFor(says("at most 2000 fit"));
    expect(buttons(told)).toEqual([]);
    await user.sendDocument({ fileName: "notes.pdf", mimeType: "application/pdf" });
    await user.waitFor(says("not this kind of file"));
    expect(user.messages().filter(textOffer)).toEqual([]);
  });

  test("a sentence is offered a picture or a video, each priced; Video opens the video panel with it", async () => {
    const user = await startedUser(h);
    const sent = await user.send("a paper boat sailing down a rainy street");
    const offer = await user.waitFor(textOffer);
    expect(buttons(offer).map((b) => b.text)).toEqual(["🎨 Make a picture", "🎬 Make a video"]);
    const video = defaultVideoOptions();
    const videoCost = cost(quote(prices, { operation: "video", ...video }));
    expect(plain(offer.text)).toContain(
      `🎬 A video (${video.model}, ${video.duration} s): ${videoCost} credits`,
    );
    expect(plain(offer.text)).toContain(
      `Price: ${cost(imageQuote(prices, defaultImageOptions()))} credits (balance: 100)`,
    );
    await tap(user, offerOf("v", sent), offer);
    const summary = await user.waitFor((m) => panel(m) && says("🎬 New video")(m));
    expect(plain(summary.text)).toContain("Description: a paper boat sailing down a rainy street");
    expect(plain(summary.text)).toContain(`Price: ${videoCost} credits`);
  });

  test("a pasted audio link is read: a dub offer priced by its length, never a picture prompt", async () => {
    const user = await startedUser(h);
    const link = `${files.url}/podcast/episode12.wav`;
    const sent = await user.send(link);
    const offer = await user.waitFor(hasData(offerOf("d", sent)));
    expect(offer.reply_to_message?.message_id).toBe(sent.message_id);
    expect(plain(offer.text)).toContain("Shall I dub this audio into another language?");
    const price = cost(quote(prices, { operation: "dub", durationSeconds: 95 }));
    expect(plain(offer.text)).toMatch(new RegExp(`Price: (up to )?${price} credits.*\\(balance: 100\\)`));
    expect(buttons(offer).map((b) => b.text)).toEqual(["🎙 Dub it"]);
    await tap(user, offerOf("d", sent), offer);
    // the length read with the offer: the panel does not read the link again
    const summary = await user.waitFor((m) => panel(m) && says("🎙 Dubbing")(m));
    expect(plain(summary.text)).toContain("Length: 1:35");
    expect(plain(summary.text)).toContain(`Price: ${price} credits`);
    expect(files.hits.get("/podcast/episode12.wav")).toBe(1);
    expect(user.messages().filter(textOffer)).toEqual([]);
  });

  test("a pasted image link gets the photo's offers, priced; a page the picture and video offers", async () => {
    const user = await startedUser(h);
    const image = await user.send(`${files.url}/cat.png`);
    const offer = await user.waitFor(photoOffer);
    expect(offer.reply_to_message?.message_id).toBe(image.message_id);
    expect(buttons(offer).map((b) => b.text)).toEqual(["✏️ Edit it", "🖼 Make a new picture from it"]);
    const price = cost(imageQuote(prices, defaultImageOptions()));
    expect(plain(offer.text)).toContain(`Price: ${price} credits (balance: 100)`);
    await tap(user, offerOf("e", image), offer);
    await user.waitFor(says("What should change?"));
    await user.send("/cancel");
    await user.waitFor(says("Cancelled"));

    const page = await user.send(`${files.url}/article`);
    const pageOffer = await user.waitFor(
      (m) => textOffer(m) && m.reply_to_message?.message_id === page.message_id,
    );
    expect(buttons(pageOffer).map((b) => b.text)).toEqual(["🎨 Make a picture", "🎬 Make a video"]);
  });

  test("a link that cannot be opened is told so, in the user's language; nothing is offered or charged", async () => {
    const user = await startedUser(h);
    await user.send(`${files.url}/gone.mp3`);
    const told = await user.waitFor(says("I could not open this link"));
    expect(buttons(told)).toEqual([]);
    const persian = await startedUser(h, "fa");
    await persian.send(`${files.url}/gone.mp3`);
    await persian.waitFor(says("نتوانستم این لینک را باز کنم"));
    // an http link is never opened: https is asked for, as /dub does
    await user.send("http://example.com/podcast/episode12.mp3");
    await user.waitFor(says("Only https links work"));
    await allHandled();
    for (const u of [user, persian]) {
      expect(u.messages().filter((m) => buttons(m).length > 0 && says("?")(m))).toEqual([]);
      expect(await h.runtime.ledger.account(u.id)).toMatchObject({ available: WELCOME, held: 0 });
    }
  });

  test("a 5,000-character message split by Telegram (4,093 + 907) gets one answer, the limit's, and no offer for its tail", async () => {
    const user = await startedUser(h);
    const words = "a lighthouse on a cliff in a storm, waves breaking ".repeat(100);
    const first = await user.send(words.slice(0, 4093));
    await user.send(words.slice(4093, 5000));
    // the first part is answered at once (its update ends answered); the rest makes that answer the whole's
    const length = words.slice(0, 5000).trim().length;
    const told = await user.waitFor((m) =>
      plain(m.text).includes(`This description has ${length} characters`),
    );
    expect(told.reply_to_message?.message_id).toBe(first.message_id);
    await allHandled();
    expect(await redis.exists(`${h.env.REDIS_PREFIX}:sent-split:${user.chatId}:${user.id}`)).toBe(0);
    expect(user.messages().filter((m) => says("at most 2000 fit")(m) || textOffer(m))).toHaveLength(1);
  });

  test("a text at the limit with nothing after it is answered on its own", async () => {
    const user = await startedUser(h);
    const sent = await user.send("a dog ".repeat(700).slice(0, 4091));
    const told = await user.waitFor(says("at most 2000 fit"));
    expect(told.reply_to_message?.message_id).toBe(sent.message_id);
    expect(plain(told.text)).toContain("This description has 4091 characters");
  });

  test("a stale offer (Redis forgot it, or it was used): told so, its buttons go, nothing starts", async () => {
    const user = await startedUser(h);
    const sent = await user.send("a lighthouse in a storm");
    const offer = await user.waitFor(textOffer);
    await redis.del(`${h.env.REDIS_PREFIX}:sent:${user.chatId}:${sent.message_id}`);
    const answer = await tap(user, offerOf("i", sent), offer);
    expect(answer.text).toBe("This offer is no longer active. Please send it again.");
    await eventually(async () =>
      buttons(user.messages().find((m) => m.message_id === offer.message_id)!).length === 0
        ? true
        : undefined,
    );
    await allHandled();
    expect(user.messages().filter(panel)).toEqual([]);
    expect(await generations(user)).toEqual([]);
  });

  test("inside a conversation the conversation gets the photo and the text, not an offer", async () => {
    const user = await startedUser(h);
    await user.send("/edit");
    const ask = await user.waitFor(says("Send 1 to 3 photos"));
    await user.sendPhoto({ width: 640, height: 480 });
    await user.waitFor(says("1 of 3 pictures received"), { after: ask });
    await user.send("make it snow");
    await user.waitFor((m) => panel(m) && says("✏️ Photo edit")(m), { after: ask });
    await allHandled();
    expect(user.messages().filter((m) => photoOffer(m) || textOffer(m))).toEqual([]);
  });

  test("groups keep commands only: a photo and text replying to the bot get no offer", async () => {
    const member = await startedUser(h);
    const group = h.tg.group({ members: [member] });
    const help = await member.sendIn(group, "/help");
    const answer = await member.waitFor((m) => Boolean(m.text), { in: group, after: help.message_id });
    // replies to the bot: seen by it even under privacy mode
    await member.sendPhoto({}, { in: group, replyTo: answer });
    await member.sendIn(group, "can you make me a picture of a dog?", { replyTo: answer });
    const again = await member.sendIn(group, "/help");
    await member.waitFor((m) => Boolean(m.text), { in: group, after: again.message_id });
    await allHandled();
    const inGroup = member.messages({ in: group });
    expect(inGroup.filter((m) => photoOffer(m) || textOffer(m) || says("did not understand")(m))).toEqual([]);
    expect(
      inGroup.flatMap(buttons).filter((b) => "callback_data" in b && b.callback_data.startsWith("so:")),
    ).toEqual([]);
  });
});
