import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inArray, sql } from "drizzle-orm";
import type { Message } from "grammy/types";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BotMessage, TestUser } from "../../../sandbox/playground/telegram";
import { endedBadly } from "../../../src/domain/generations/states";
import type { Generation } from "../../../src/domain/generations/types";
import {
  createPrices,
  loadPriceTable,
  type PriceQuote,
  type PriceTable,
} from "../../../src/domain/pricing/prices";
import { generations as generationsTable } from "../../../src/platform/db/schema";
import { eventually, generationIn, type Harness, startHarness } from "../../support/harness";
import { buttons, byData, hasData, plain, says } from "../../support/messages";

/**
 * The guided conversations end to end: the Telegram stand-in, the simulator,
 * real Postgres and Redis, the whole runtime in this process on a fast clock.
 * Buttons are pressed by their callback data where the label is translated.
 */

const table = loadPriceTable();
const prices = createPrices(table);
/** a quote's credits: the tests read every price from the table, so a price change moves them too */
const cost = (quote: PriceQuote) => (quote.ok ? quote.credits : Number.NaN);
const imagePrice = cost(prices.image("nano-core-2", undefined, 1));
/** The runtime reads its prices from here, so a test can change them across a restart. */
const pricesDir = mkdtempSync(join(tmpdir(), "msb-prices-"));
const pricesFile = join(pricesDir, "prices.json");
const writePrices = (t: PriceTable) => writeFileSync(pricesFile, JSON.stringify(t));
const WELCOME = 100;
const fixture = (name: string) =>
  readFileSync(new URL(`../../../sandbox/simulator/fixtures/${name}`, import.meta.url));

/** A sticker: the stand-in has no helper for it, so the message goes in through the user's own chat. */
function sendSticker(user: TestUser): Message {
  const internals = user as unknown as {
    post(chat: unknown, content: Record<string, unknown>, options: Record<string, unknown>): Message;
    chatState: unknown;
  };
  return internals.post(
    internals.chatState,
    {
      sticker: {
        file_id: `sticker-${user.id}`,
        file_unique_id: `sticker-u-${user.id}`,
        type: "regular",
        width: 512,
        height: 512,
        is_animated: false,
        is_video: false,
      },
    },
    {},
  );
}

describe("guided conversations", () => {
  let h: Harness;

  beforeAll(async () => {
    writePrices(table);
    h = await startHarness({ env: { PRICES_FILE: pricesFile } });
  });
  afterAll(async () => {
    await h?.stop();
    rmSync(pricesDir, { recursive: true, force: true });
  });

  async function newUser(language: "en" | "fa" = "en"): Promise<TestUser> {
    const user = h.tg.user({ language });
    await user.send("/start");
    await user.waitFor((m) => Boolean(m.text));
    return user;
  }

  /** Presses the button with this callback data on the newest message that has it, then waits for `then`. */
  async function tap(user: TestUser, data: string, then?: (m: BotMessage) => unknown): Promise<BotMessage> {
    const before = user.messages().at(-1)?.message_id ?? 0;
    const target = user.messages().filter(hasData(data)).at(-1) ?? (await user.waitFor(hasData(data)));
    await user.press(byData(data), { message: target });
    if (!then) return target;
    return user.waitFor(then, { after: Math.min(before, target.message_id) - 1 });
  }

  const panel = (m: BotMessage) => buttons(m).some(byData("cv:ok"));

  async function generations(userId: number): Promise<Generation[]> {
    return h.runtime.generations.recent(userId, 50);
  }

  /** Bot API calls of one method to one chat. */
  const callsIn = (method: string, chatId: number) =>
    h.tg.callsOf(method).filter((c) => Number(c.params.chat_id) === chatId);

  /** Requests waiting for a worker, counted like the queue position is. */
  async function waitingInQueue(): Promise<number> {
    const [row] = await h.runtime.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(generationsTable)
      .where(inArray(generationsTable.state, ["queued", "submitting"]));
    return row?.n ?? 0;
  }

  /**
   * Every generation so far has been delivered (or its failure told) and its
   * status shown, and Telegram has heard nothing for a moment: no worker edit
   * of an earlier test is still on its way.
   */
  async function allSettled(): Promise<void> {
    await eventually(async () => {
      const rows = await h.runtime.db
        .select({
          state: generationsTable.state,
          statusShown: generationsTable.statusShown,
          notifiedAt: generationsTable.notifiedAt,
        })
        .from(generationsTable);
      const settled = rows.every(
        (r) =>
          (r.state === "delivered" && r.statusShown !== null) ||
          (endedBadly.includes(r.state) && r.notifiedAt !== null) ||
          r.state === "cancelled",
      );
      return settled ? true : undefined;
    });
    await eventually(async () => {
      const before = h.tg.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      return h.tg.calls.length === before ? true : undefined;
    });
  }

  async function expectPaidOnce(user: TestUser, g: Generation) {
    expect(g.charged).toBe(g.price);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: WELCOME - g.price, held: 0 });
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
  }

  // ------------------------------------------------------------------ the four operations

  test("image in English: prompt, then only buttons (model, resolution, ratio, count), one charge", async () => {
    const user = await newUser("en");
    await user.send("/image");
    await user.waitFor(says("Describe the image"));
    await user.send("a red lighthouse at dusk");
    await user.waitFor((m) => panel(m) && says("🖼 New image")(m));

    const picker = await tap(user, "cv:o:m", says("Choose a model"));
    expect(buttons(picker).find(byData("cv:p:gamma-5-pro"))?.text).toBe(
      `gamma-5-pro · ${cost(prices.image("gamma-5-pro", "1K", 1))} cr`,
    );
    await tap(user, "cv:p:gamma-5-pro", says("Model: gamma-5-pro"));
    await tap(user, "cv:o:r", says("Choose the resolution"));
    await tap(user, "cv:p:2K", says("Resolution: 2K"));
    await tap(user, "cv:o:a", says("Choose the aspect ratio"));
    await tap(user, "cv:p:1:1", says("Aspect ratio: 1:1"));
    await tap(user, "cv:o:n", says("How many images"));
    const summary = await tap(user, "cv:p:2", says("Number of images: 2"));
    const price = cost(prices.image("gamma-5-pro", "2K", 2));
    expect(plain(summary.text)).toContain(`Price: ${price} credits (balance: 100)`);
    expect(buttons(summary).find(byData("cv:ok"))?.text).toBe(`✅ Confirm · ${price} credits`);

    await tap(user, "cv:ok");
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({
      operation: "image",
      prompt: "a red lighthouse at dusk",
      model: "gamma-5-pro",
      resolution: "2K",
      imageSize: "1:1",
      numImages: 2,
    });
    await expectPaidOnce(user, g);
  });

  test("a question with only Cancel under it has no empty row above it", async () => {
    const user = await newUser("en");
    await user.send("/dub");
    const ask = await user.waitFor(says("Send the audio or video to dub"));
    expect(ask.reply_markup?.inline_keyboard.map((row) => row.map((b) => b.text))).toEqual([["✖️ Cancel"]]);
  });

  test("a first image with taps only: the example button is the prompt; no keyboard has an empty row", async () => {
    const user = await newUser("en");
    await user.send("/image");
    const ask = await user.waitFor(says("Describe the image"));
    expect(ask.reply_markup?.inline_keyboard.map((row) => row.length)).toEqual([1, 1]);
    await tap(user, "cv:p:example", (m) => panel(m) && says("🖼 New image")(m));
    await tap(user, "cv:ok");
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({ operation: "image", prompt: "a red lighthouse at dusk, watercolor" });
    // every keyboard the user saw with buttons on it (an empty one removes the buttons)
    const keyboards = user
      .messages()
      .flatMap((m) => [...m.history, m].map((v) => v.reply_markup?.inline_keyboard ?? []))
      .filter((rows) => rows.flat().length > 0);
    expect(keyboards.length).toBeGreaterThan(1);
    const rows = keyboards.flat();
    expect(rows.filter((row) => row.length === 0)).toEqual([]);
  });

  test("image in Persian: a Persian prompt and two taps on the defaults", async () => {
    const user = await newUser("fa");
    await user.send("/image");
    await user.waitFor(says("تصویری را که می‌خواهید"));
    await user.send("یک فانوس دریایی قرمز در غروب");
    const summary = await user.waitFor((m) => panel(m) && says("🖼 تصویر جدید")(m));
    expect(plain(summary.text)).toContain("مدل: nano-core-2");
    await tap(user, "cv:o:a", says("نسبت تصویر را انتخاب کنید"));
    await tap(user, "cv:p:16:9", says("نسبت تصویر: 16:9"));
    await tap(user, "cv:ok");
    const photo = await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    expect(photo.caption).toContain("یک فانوس دریایی قرمز در غروب");
    const g = await generationIn(h, user.id, "delivered");
    expect(g.language).toBe("fa");
    expect(g.params).toMatchObject({ model: "nano-core-2", imageSize: "16:9", numImages: 1 });
    await expectPaidOnce(user, g);
  });

  test("edit in English: an album of two photos, a description, buttons, one charge", async () => {
    const user = await newUser("en");
    await user.send("/edit");
    await user.waitFor(says("Send 1 to 3 photos"));
    await user.sendAlbum([
      { width: 1280, height: 720 },
      { width: 1280, height: 720 },
    ]);
    await user.waitFor(says("2 of 3 pictures received"));
    // the album shares one counter message
    expect(user.messages().filter((m) => plain(m.text).includes("pictures received"))).toHaveLength(1);
    await user.send("make the sky purple");
    const summary = await user.waitFor((m) => panel(m) && says("✏️ Photo edit")(m));
    expect(plain(summary.text)).toContain("Pictures: 2");
    // a 1280×720 picture keeps its proportions as near as the service allows
    expect(plain(summary.text)).toContain("Aspect ratio: 16:9");
    await tap(user, "cv:o:m", says("Choose a model"));
    await tap(user, "cv:p:nano-lite", says("Model: nano-lite"));
    await tap(user, "cv:ok");
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({ operation: "edit", prompt: "make the sky purple", model: "nano-lite" });
    expect((g.params as { images: unknown[] }).images).toHaveLength(2);
    const create = h.sim.requests.find((r) => r.path === "/api/v1/images/edits" && r.body.includes(g.id));
    expect(create).toBeDefined();
    expect((JSON.parse(create?.body ?? "{}") as { image_urls?: string[] }).image_urls).toHaveLength(2);
    await expectPaidOnce(user, g);
  });

  test("edit: an album captioned /edit is gathered by media_group_id; Continue takes the caption as the description", async () => {
    const user = await newUser("en");
    await user.sendAlbum([{ caption: "/edit make it snow" }, {}, {}]);
    const counter = await user.waitFor(says("3 of 3 pictures received"));
    expect(plain(counter.text)).toContain("Description: make it snow");
    // the captioned photo started the conversation; the rest of its album shares its counter message
    expect(user.messages().filter((m) => plain(m.text).includes("pictures received"))).toHaveLength(1);
    await tap(user, "cv:d", (m) => panel(m) && says("Pictures: 3")(m));
    await tap(user, "cv:ok");
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({ operation: "edit", prompt: "make it snow" });
    expect((g.params as { images: unknown[] }).images).toHaveLength(3);
  });

  test("dub: a video captioned /dub fa goes straight to the summary", async () => {
    const user = await newUser("en");
    await user.sendVideo({ duration: 75, fileName: "trip.mp4", caption: "/dub fa" });
    const summary = await user.waitFor((m) => panel(m) && says("File: trip.mp4")(m));
    expect(plain(summary.text)).toContain("Dub into: Persian");
    expect(plain(summary.text)).toContain("Length: 1:15");
    // two started minutes
    expect(plain(summary.text)).toContain(`Price: ${cost(prices.dub(75))} credits`);
  });

  test("a command on a file that cannot be used says why and asks for another", async () => {
    const user = await newUser("en");
    const big = await user.sendAudio({ duration: 30, declaredSize: 40 * 1024 * 1024, fileName: "big.mp3" });
    await user.replyTo(big, "/dub de");
    await user.waitFor(says("This file is 40 MB; Telegram lets bots download at most 20 MB"));
    await user.waitFor(says("Send the audio or video to dub"));
    await user.send("https://media.example/big.mp3");
    const summary = await user.waitFor((m) => panel(m) && says("Dub into: German")(m));
    expect(plain(summary.text)).toContain("File: https://media.example/big.mp3");
  });

  test("edit in Persian: a reply to a photo, then buttons only; the result's edit button starts a new edit", async () => {
    const user = await newUser("fa");
    const own = await user.sendPhoto({ width: 720, height: 1280 });
    await user.replyTo(own, "/edit آسمان را بنفش کن");
    const summary = await user.waitFor((m) => panel(m) && says("✏️ ویرایش عکس")(m));
    expect(plain(summary.text)).toContain("نسبت تصویر: 9:16");
    await tap(user, "cv:o:n", says("چند تصویر؟"));
    await tap(user, "cv:p:1", says("تعداد تصاویر"));
    await tap(user, "cv:ok");
    const result = await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const g = await generationIn(h, user.id, "delivered");
    await expectPaidOnce(user, g);

    // the status says it is ready, without buttons: they are under the result
    const done = await user.waitFor((m) => m.message_id === g.statusMessageId && says("آماده است")(m));
    expect(buttons(done)).toEqual([]);
    // "✏️ ویرایش همین" under the result: the result is the photo of a new edit
    await user.press(/ویرایش همین/, { message: result });
    await user.waitFor(says("چه چیزی تغییر کند؟"), { after: result });
    await user.send("یک کلاه اضافه کن");
    await user.waitFor((m) => panel(m) && says("تصاویر: ۱")(m), { after: result });
    await tap(user, "cv:ok");
    await eventually(async () => ((await generations(user.id)).length === 2 ? true : undefined));
    const [second] = await generations(user.id);
    expect((second!.params as { images: Array<{ fileId?: string }> }).images[0]?.fileId).toBe(g.fileIds?.[0]);
  });

  test("video in English: model with sound and web search, duration, resolution, ratio", async () => {
    const user = await newUser("en");
    await user.send("/video");
    await user.waitFor(says("Describe the video"));
    await user.send("waves rolling onto a beach");
    await user.waitFor(panel);
    await tap(user, "cv:o:m", says("Choose a model"));
    await tap(user, "cv:p:video-b-2-mini", says("Model: video-b-2-mini"));
    await tap(user, "cv:t:au", says("Sound: on"));
    await tap(user, "cv:t:ws", says("Web search: on"));
    await tap(user, "cv:o:d", says("How long"));
    await tap(user, "cv:p:4", says("Duration: 4 s"));
    await tap(user, "cv:o:r", says("Choose the resolution"));
    await tap(user, "cv:p:480p", says("Resolution: 480p"));
    await tap(user, "cv:o:a", says("Choose the aspect ratio"));
    const summary = await tap(user, "cv:p:1:1", says("Aspect ratio: 1:1"));
    expect(plain(summary.text)).toContain(
      `Price: ${cost(prices.video("video-b-2-mini", "480p", 4))} credits`,
    );
    await tap(user, "cv:ok");
    await user.waitFor((m) => m.video !== undefined, { timeoutMs: 30_000 });
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({
      operation: "video",
      model: "video-b-2-mini",
      duration: 4,
      resolution: "480p",
      aspectRatio: "1:1",
      generateAudio: true,
      webSearch: true,
    });
    await expectPaidOnce(user, g);
  });

  test("video in Persian: only the durations a model allows are offered", async () => {
    const user = await newUser("fa");
    await user.send("/video");
    await user.waitFor(says("ویدیو را توضیح دهید"));
    await user.send("موج‌هایی که به ساحل می‌رسند");
    await user.waitFor(panel);
    await tap(user, "cv:o:m", says("مدل را انتخاب کنید"));
    await tap(user, "cv:p:video-e-3.1", says("مدل: video-e-3.1"));
    const durations = await tap(user, "cv:o:d", says("چند ثانیه"));
    expect(
      buttons(durations)
        .map((b) => ("callback_data" in b ? b.callback_data : ""))
        .filter((d) => d?.startsWith("cv:p:")),
    ).toEqual(["cv:p:4", "cv:p:6", "cv:p:8"]);
    await tap(user, "cv:p:6", says("مدت: ۶ ثانیه"));
    await tap(user, "cv:ok");
    await user.waitFor((m) => m.video !== undefined, { timeoutMs: 30_000 });
    const g = await generationIn(h, user.id, "delivered");
    // the ratio chosen before (the default 9:16) is one video-e-3.1 accepts, so it stays
    expect(g.params).toMatchObject({ model: "video-e-3.1", duration: 6, aspectRatio: "9:16" });
    await expectPaidOnce(user, g);
  });

  test("dub in English: an uploaded audio, target language from the second page, source language", async () => {
    const user = await newUser("en");
    const command = await user.send("/dub");
    await user.waitFor(says("Send the audio or video to dub"));
    const audio = await user.sendAudio({
      bytes: fixture("audio.mp3"),
      fileName: "talk.mp3",
      mimeType: "audio/mpeg",
      duration: 3,
    });
    const summary = await user.waitFor((m) => panel(m) && says("🎙 Dubbing")(m));
    expect(plain(summary.text)).toContain("Dub into: English");
    expect(plain(summary.text)).toContain(`Price: ${cost(prices.dub(3))} credits`);
    await tap(user, "cv:o:tl", says("Dub into which language"));
    await tap(user, "cv:g:1", hasData("cv:p:nl"));
    await tap(user, "cv:p:nl", says("Dub into: Dutch"));
    const sources = await tap(user, "cv:o:sl", says("Which language is spoken"));
    expect(buttons(sources).some(byData("cv:p:auto"))).toBe(true);
    await tap(user, "cv:p:en", says("Spoken language: English"));
    await tap(user, "cv:ok");
    const result = await user.waitFor((m) => m.audio !== undefined || m.video !== undefined, {
      timeoutMs: 30_000,
    });
    // the result names and answers the file it dubbed, not the bare "/dub" sent before it
    expect(plain(result.caption).split("\n").slice(0, 2)).toEqual(["🎙 talk.mp3", "English → Dutch"]);
    expect(result.reply_to_message?.message_id).toBe(audio.message_id);
    expect(result.reply_to_message?.message_id).not.toBe(command.message_id);
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({ operation: "dub", targetLanguage: "nl", sourceLanguage: "en" });
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
  });

  test("dub in Persian: an https link is held at the five-minute price (the measured charge: operations.test.ts dub)", async () => {
    const user = await newUser("fa");
    await user.send("/dub");
    await user.waitFor(says("صدا یا ویدیویی را که باید دوبله شود"));
    const source = "https://media.example/interview.mp3";
    await user.send(source);
    const summary = await user.waitFor((m) => panel(m) && says("🎙 دوبله")(m));
    expect(plain(summary.text)).toContain("دوبله به: فارسی");
    expect(plain(summary.text)).toContain("لینک با قیمت");
    await tap(user, "cv:o:tl", says("به چه زبانی دوبله شود؟"));
    await tap(user, "cv:p:de", says("دوبله به: آلمانی"));
    await tap(user, "cv:ok");
    const g = await eventually(async () => (await generations(user.id))[0]);
    const held = prices.dub(300);
    expect(g.price).toBe(held.ok ? held.credits : -1);
    expect(g.params).toMatchObject({
      operation: "dub",
      targetLanguage: "de",
      source: { kind: "url", url: source },
    });
  });

  // ------------------------------------------------------------------ bad inputs

  test("bad prompts are answered and the conversation goes on", async () => {
    const user = await newUser("en");
    await user.send("/image");
    const ask = await user.waitFor(says("Describe the image"));
    await user.send("   ");
    await user.waitFor(says("The description is empty"), { after: ask });
    await user.send("x".repeat(2001));
    await user.waitFor(says("This description has 2001 characters; at most 2000 fit"), { after: ask });
    sendSticker(user);
    await user.waitFor(says("Stickers cannot be descriptions"), { after: ask });
    await user.send("a calm lake");
    await user.waitFor((m) => panel(m) && says("Description: a calm lake")(m));
  });

  test("bad pictures for an edit are answered and the conversation goes on (fa)", async () => {
    const user = await newUser("fa");
    await user.send("/edit");
    const ask = await user.waitFor(says("عکس برای ویرایش بفرستید"));
    sendSticker(user);
    await user.waitFor(says("این یک استیکر است"), { after: ask });
    await user.send("http://example.com/cat.jpg");
    await user.waitFor(says("فقط لینک‌های https"), { after: ask });
    await user.sendPhoto({ width: 800, height: 600, declaredSize: 25 * 1024 * 1024 });
    await user.waitFor(says("۲۰ مگابایت"), { after: ask });
    await user.sendAlbum([{}, {}, {}, {}]);
    await user.waitFor(says("۳ تصویر اول را نگه داشتم"), { after: ask });
    await user.waitFor(says("۳ از ۳ تصویر دریافت شد"), { after: ask });
    await user.send("رنگ‌ها را گرم‌تر کن");
    await user.waitFor((m) => panel(m) && says("تصاویر: ۳")(m), { after: ask });
  });

  test("bad files for dubbing are answered and the conversation goes on", async () => {
    const user = await newUser("en");
    await user.send("/dub");
    const ask = await user.waitFor(says("Send the audio or video to dub"));
    await user.sendAudio({ duration: 60, declaredSize: 25 * 1024 * 1024 });
    await user.waitFor(says("This file is 25 MB; Telegram lets bots download at most 20 MB"), { after: ask });
    await user.waitFor(says("Send an https link to it instead (files up to 2,000 MB)"), { after: ask });
    await user.sendVideo({ duration: 60, declaredSize: 2100 * 1000 * 1000 });
    await user.waitFor(says("the studio takes files of at most 2,000 MB"), { after: ask });
    // past the studio's 5 minutes a file is dubbed in parts; past DUB_MAX_MINUTES (60) it is refused
    await user.sendVoice({ duration: 3700 });
    await user.waitFor(says("This file is 61 min 40 s long; the studio dubs files of up to 60 minutes"), {
      after: ask,
    });
    await user.send("http://example.com/talk.mp3");
    await user.waitFor(says("Only https links work"), { after: ask });
    await user.sendDocument({ fileName: "notes.pdf", mimeType: "application/pdf" });
    await user.waitFor(says("Please send an audio or video"), { after: ask });
    sendSticker(user);
    await user.sendVideo({ duration: 42, fileName: "clip.mp4" });
    const summary = await user.waitFor((m) => panel(m) && says("File: clip.mp4")(m), { after: ask });
    expect(plain(summary.text)).toContain("Length: 0:42");
  });

  test("a description after the command is checked like one typed at the prompt", async () => {
    const user = await newUser("en");
    await user.send(`/edit ${"x".repeat(4000)}`);
    await user.waitFor(says("This description has 4000 characters; at most 2000 fit"));
    const photos = await user.waitFor(says("Send 1 to 3 photos"));
    expect(plain(photos.text)).not.toContain("Description:");

    await user.send(`/image ${"y".repeat(3000)}`);
    const tooLong = await user.waitFor(says("This description has 3000 characters"), { after: photos });
    await user.waitFor(says("Describe the image"), { after: tooLong });
    expect(user.messages().some((m) => m.message_id > photos.message_id && panel(m))).toBe(false);

    // an accepted long description is shortened on screen (the whole of it is sent)
    const long = `${"z".repeat(1500)} end`;
    const own = await user.sendPhoto({ width: 800, height: 800 });
    await user.replyTo(own, `/edit ${long}`);
    const summary = await user.waitFor((m) => panel(m) && says("✏️ Photo edit")(m), { after: tooLong });
    expect(plain(summary.text)).not.toContain(" end");
    expect(plain(summary.text).length).toBeLessThan(1000);
  });

  // ------------------------------------------------------------------ safety

  test("double-tapping Confirm creates one generation", async () => {
    const user = await newUser("en");
    await user.send("/image two taps");
    const summary = await user.waitFor(panel);
    const taps = await Promise.all([
      user.press(byData("cv:ok"), { message: summary }),
      user.press(byData("cv:ok"), { message: summary }),
    ]);
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    await h.tg.idle();
    const answers = await Promise.all(taps.map((id) => user.waitForAnswer(id)));
    // whichever came first confirmed; the other found the conversation over
    expect(answers.map((a) => a.text ?? "")).toEqual(
      expect.arrayContaining(["", "This menu is no longer active."]),
    );
    const all = await generations(user.id);
    expect(all).toHaveLength(1);
    await expectPaidOnce(user, await generationIn(h, user.id, "delivered"));
  });

  test("/start and /balance answer inside a conversation, /cancel leaves it", async () => {
    const user = await newUser("en");
    await user.send("/video");
    await user.send("a fox in the snow");
    const summary = await user.waitFor(panel);
    await user.send("/balance");
    await user.waitFor(says("Your credits"), { after: summary });
    // still in the conversation: its buttons work
    await tap(user, "cv:o:d", says("How long"));
    await user.send("/cancel");
    await user.waitFor(says("Cancelled. Nothing was charged."), { after: summary });
    await user.press(byData("cv:b"), { message: summary });
    await h.tg.idle();
    expect(await generations(user.id)).toHaveLength(0);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: WELCOME, held: 0 });
  });

  test("a new command inside a conversation starts over; the old panel's buttons are answered, not obeyed", async () => {
    const user = await newUser("en");
    await user.send("/video a slow sunrise");
    const old = await user.waitFor(panel);
    await user.send("/image a fast sunset");
    await user.waitFor((m) => panel(m) && says("🖼 New image")(m), { after: old });
    const stale = await user.press(byData("cv:ok"), { message: old });
    expect((await user.waitForAnswer(stale)).text).toBe("This menu is no longer active.");
    // and the stale buttons are gone
    await user.waitFor((m) => m.message_id === old.message_id && buttons(m).length === 0);
    await tap(user, "cv:ok");
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({ operation: "image", prompt: "a fast sunset" });
    expect(await generations(user.id)).toHaveLength(1);
  });

  test("in a forum topic: the question forces a reply, the panel and the result stay in the topic", async () => {
    const user = await newUser("en");
    const group = h.tg.group({ forum: true, members: [user] });
    const topic = group.createTopic(user, "Art");
    await user.sendIn(group, "/image", { threadId: topic });
    const question = await user.waitFor(says("Describe the image"), { in: group });
    expect(question.message_thread_id).toBe(topic);
    await user.replyTo(question, "a lantern in the fog");
    const summary = await user.waitFor(panel, { in: group });
    expect(summary.message_thread_id).toBe(topic);
    await user.press(byData("cv:ok"), { in: group, message: summary });
    const photo = await user.waitFor((m) => m.photo !== undefined, { in: group, timeoutMs: 20_000 });
    expect(photo.message_thread_id).toBe(topic);
    const g = await generationIn(h, user.id, "delivered");
    expect(g).toMatchObject({ chatId: group.id, threadId: topic });
  });

  test("in a group, a press on another member's live panel is only answered; the panel keeps its buttons", async () => {
    const alice = await newUser("en");
    const bob = await newUser("en");
    const group = h.tg.group({ members: [alice, bob] });
    await alice.sendIn(group, "/image a shared lighthouse");
    const summary = await alice.waitFor(panel, { in: group });
    const press = await bob.press(byData("cv:o:a"), { in: group, message: summary });
    expect((await bob.waitForAnswer(press)).text).toBe("This menu is no longer active.");
    // Alice's next press is handled after Bob's (one chat): her buttons are still there and work
    await alice.press(byData("cv:o:a"), { in: group, message: summary });
    await alice.waitFor(says("Choose the aspect ratio"), { in: group });
    expect(callsIn("editMessageReplyMarkup", group.id)).toEqual([]);
  });

  test("a failure while creating the request brings the panel back, never a false 'queued'", async () => {
    const user = await newUser("en");
    await user.send("/image a fragile bridge");
    const summary = await user.waitFor(panel);
    const service = h.runtime.generations;
    const create = service.create;
    service.create = async () => {
      throw new Error("Connection terminated unexpectedly");
    };
    try {
      const back = await tap(
        user,
        "cv:ok",
        (m) => m.message_id === summary.message_id && panel(m) && says("something went wrong")(m),
      );
      expect(plain(back.text)).not.toContain("in the queue");
    } finally {
      service.create = create;
    }
    expect(await generations(user.id)).toHaveLength(0);
    // the same panel confirms once the database is back
    await tap(user, "cv:ok");
    await expectPaidOnce(user, await generationIn(h, user.id, "delivered"));
  });

  test("a price changed since the panel was shown is not charged: the panel shows the new one first", async () => {
    const user = await newUser("en");
    await user.send("/image a lighthouse at new prices");
    const summary = await user.waitFor(panel);
    expect(plain(summary.text)).toContain(`Price: ${imagePrice} credits`);
    await h.stopRuntime();
    const raised = imagePrice + 1;
    writePrices({ ...table, image: { ...table.image, "nano-core-2": { default: raised } } });
    try {
      await h.startRuntime();
      const again = await tap(
        user,
        "cv:ok",
        (m) => m.message_id === summary.message_id && panel(m) && says(`it is now ${raised} credits`)(m),
      );
      expect(plain(again.text)).toContain(`Price: ${raised} credits`);
      expect(buttons(again).find(byData("cv:ok"))?.text).toBe(`✅ Confirm · ${raised} credits`);
      expect(await generations(user.id)).toHaveLength(0);
      await tap(user, "cv:ok");
      const g = await generationIn(h, user.id, "delivered");
      expect(g.price).toBe(raised);
      await expectPaidOnce(user, g);
    } finally {
      writePrices(table);
      await h.stopRuntime();
      await h.startRuntime();
    }
  });

  test("a 403 to a conversation's own call marks the user blocked, as bot.api does", async () => {
    const user = await newUser("en");
    await user.send("/image a closed door");
    const summary = await user.waitFor(panel);
    await user.block();
    await eventually(async () => ((await h.runtime.users.get(user.id))?.blockedAt ? true : undefined));
    // the press counts as the user being back; the picker's edit of the panel then meets the block
    await user.press(byData("cv:o:a"), { message: summary });
    await eventually(async () =>
      callsIn("editMessageText", user.id).some((c) => !c.response.ok) ? true : undefined,
    );
    await eventually(async () => ((await h.runtime.users.get(user.id))?.blockedAt ? true : undefined), 5_000);
  });

  test("not enough credits: says how many are missing, spends nothing, the panel stays", async () => {
    const user = await newUser("en");
    await user.send("/video a long journey");
    await user.waitFor(panel);
    await tap(user, "cv:o:m", says("Choose a model"));
    await tap(user, "cv:p:video-c-3-prime", says("Model: video-c-3-prime"));
    await tap(user, "cv:o:r", says("Choose the resolution"));
    await tap(user, "cv:p:1080p", says("Resolution: 1080p"));
    await tap(user, "cv:o:d", says("How long"));
    await tap(user, "cv:g:1", hasData("cv:p:30"));
    await tap(user, "cv:p:30", says("Duration: 30 s"));
    await tap(
      user,
      "cv:ok",
      says(`You need ${cost(prices.video("video-c-3-prime", "1080p", 30)) - WELCOME} more`),
    );
    expect(await generations(user.id)).toHaveLength(0);
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: WELCOME, held: 0 });
    // a fresh panel: a cheaper choice goes through
    await tap(user, "cv:o:d", says("How long"));
    await tap(user, "cv:g:0", hasData("cv:p:2"));
    await tap(user, "cv:p:2", says("Duration: 2 s"));
    await tap(user, "cv:ok");
    const g = await generationIn(h, user.id, "delivered", 30_000);
    await expectPaidOnce(user, g);
  });

  test("flood control on an edit is waited out inside the conversation, which goes on", async () => {
    const user = await newUser("en");
    await user.send("/image a busy harbour");
    await user.waitFor(panel);
    // the fault goes to the next edit of any chat: no worker edit of an earlier test may take it
    await allSettled();
    h.tg.failNext("editMessageText", {
      code: 429,
      description: "Too Many Requests: retry after 1",
      retryAfter: 1,
    });
    const edits = callsIn("editMessageText", user.id).length;
    await tap(user, "cv:o:a", says("Choose the aspect ratio"));
    const tried = callsIn("editMessageText", user.id).slice(edits);
    expect(tried.map((c) => c.response.ok)).toEqual([false, true]);
    await tap(user, "cv:p:16:9", says("Aspect ratio: 16:9"));
    await tap(user, "cv:ok");
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({ imageSize: "16:9" });
  });

  test("a restart in the middle of a conversation resumes at the same step", async () => {
    const user = await newUser("en");
    await user.send("/image");
    await user.send("a lighthouse after a restart");
    await user.waitFor(panel);
    await tap(user, "cv:o:m", says("Choose a model"));
    await h.stopRuntime();
    await h.startRuntime();
    await tap(user, "cv:p:alpha-quality", says("Model: alpha-quality"));
    await tap(user, "cv:ok");
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const g = await generationIn(h, user.id, "delivered");
    expect(g.params).toMatchObject({ model: "alpha-quality", prompt: "a lighthouse after a restart" });
    await expectPaidOnce(user, g);
  });

  // ------------------------------------------------------------------ history, menus

  test("/history lists requests with state and cost; a result is sent again by file_id; a failed one can be tried again", async () => {
    const user = await newUser("en");
    await user.send("/image a quiet harbour");
    await tap(user, "cv:ok");
    await user.waitFor((m) => m.photo !== undefined, { timeoutMs: 20_000 });
    const done = await generationIn(h, user.id, "delivered");
    h.sim.faults.nextTask({ operation: "image", fail: true });
    await user.send("/image a broken dream");
    await tap(user, "cv:ok");
    await generationIn(h, user.id, "failed");

    await user.send("/history");
    const list = await user.waitFor(says("Your recent requests"));
    expect(plain(list.text)).toMatch(/1\. Image generation · ❌ failed · no charge/);
    expect(plain(list.text)).toMatch(
      new RegExp(`2\\. Image generation · ✅ delivered · ${imagePrice} credits`),
    );

    const sends = h.tg.callsOf("sendPhoto").length;
    await user.press(byData(`hs:${done.id}`), { message: list });
    const again = await user.waitFor((m) => m.photo !== undefined && m.message_id > list.message_id);
    expect(again.caption).toContain("a quiet harbour");
    const resend = h.tg.callsOf("sendPhoto").slice(sends).at(-1);
    expect(resend?.params.photo).toBe(done.fileIds?.[0]);

    const [failed] = await generations(user.id);
    await user.press(byData(`rg:${failed!.id}`), { message: list });
    const retry = await user.waitFor((m) => panel(m) && says("a broken dream")(m), { after: list });
    expect(retry).toBeDefined();
  });

  test("command menus are set in English and Persian", () => {
    const en = h.tg.commandMenu(0, {}).map((c) => c.command);
    expect(en).toEqual(expect.arrayContaining(["image", "edit", "video", "dub", "history", "cancel"]));
    const fa = h.tg.commandMenu(0, { language: "fa" });
    expect(fa.find((c) => c.command === "image")?.description).toBe("ساخت تصویر از روی توضیح");
  });

  test("/cancel also cancels a request still queued and releases its hold; a long queue shows the place", async () => {
    // without workers nothing leaves the queue
    await h.runtime.workers?.close();
    const others = await Promise.all([newUser("en"), newUser("en"), newUser("en")]);
    for (const other of others) {
      await other.send("/image waiting");
      await tap(other, "cv:ok", says("in the queue"));
    }
    const user = await newUser("en");
    await user.send("/image patience");
    await user.waitFor(panel);
    // whatever earlier tests left waiting counts too
    const ahead = await waitingInQueue();
    expect(ahead).toBeGreaterThanOrEqual(others.length);
    const status = await tap(user, "cv:ok", says(`Place in the queue: ${ahead + 1}`));
    await generationIn(h, user.id, "queued");
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ held: imagePrice });

    await user.send("/cancel");
    await user.waitFor(says(`Your queued request was cancelled; its ${imagePrice} credits are back`), {
      after: status,
    });
    const [g] = await generations(user.id);
    expect(g?.state).toBe("cancelled");
    expect(await h.runtime.ledger.account(user.id)).toMatchObject({ available: WELCOME, held: 0 });
    expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);
    await h.stopRuntime();
    await h.startRuntime();
    // the others' requests run now that workers are back: they finish here, not inside another
    // test (where their tasks would take that test's service faults)
    for (const other of others) await generationIn(h, other.id, "delivered", 40_000);
  });
});
