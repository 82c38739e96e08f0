import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Api } from "grammy";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TelegramStandIn, TestUser } from "../../../sandbox/playground/telegram";
import { solidPng } from "../../../sandbox/playground/telegram/images";
import { deliverOutputs, telegramLimits } from "../../../src/domain/generations/deliver/send-outputs";
import { showStatus } from "../../../src/domain/generations/status";
import type { Generation } from "../../../src/domain/generations/types";
import { translate } from "../../../src/platform/i18n/i18n";
import { languageFromCode } from "../../../src/platform/i18n/language";
import { type DeliveryRig, startDeliveryRig } from "../../support/delivery-rig";

/**
 * What delivery.test.ts leaves unpinned, written against the mutants Stryker
 * left alive (docs/mutation-report.md): where a result goes (reply), the
 * caption's cost and late line, one photo vs an album, file ids kept for every
 * kind of message, the chat action per operation, and the status message
 * edited in place, skipped when unchanged, replaced when gone.
 */
describe("delivering outputs and the status message: details", () => {
  let rig: DeliveryRig;
  let tg: TelegramStandIn;
  let user: TestUser;
  const secret = "delivery-test-secret-0123456789abcdef";
  beforeAll(async () => {
    rig = await startDeliveryRig(secret);
    ({ tg, user } = rig);
  });
  afterAll(async () => rig?.close());
  const serve = (path: string, body: Buffer, type: string) => rig.serve(path, body, type);
  const generation = (...args: Parameters<DeliveryRig["generation"]>) => rig.generation(...args);
  const deps = () => rig.deps();

  const t = (key: string, vars?: Record<string, string | number>) =>
    translate(languageFromCode("en"), key, vars);
  const lastCall = (method: string) => tg.callsOf(method).at(-1)?.params;

  test("one image: a photo (not an album) with its cost in the caption, kept file id, a reply to the request", async () => {
    const request = user.messages().at(0)?.message_id ?? 1;
    const albums = tg.callsOf("sendMediaGroup").length;
    const g = generation("image", [serve("/m1.png", solidPng(30, 30), "image/png")], {
      replyToMessageId: request,
    });
    const sent = await deliverOutputs(g, deps());
    expect(tg.callsOf("sendMediaGroup").length).toBe(albums);
    expect(sent.fileIds).toHaveLength(1);
    const params = lastCall("sendPhoto");
    expect(params?.reply_parameters).toMatchObject({
      message_id: request,
      allow_sending_without_reply: true,
    });
    expect(String(params?.caption)).toContain("8 credits");
    expect(String(params?.caption)).not.toContain(t("gen-late-free"));
  });

  test("a late result says it is free, and costs 0", async () => {
    const g = generation("image", [serve("/late.png", solidPng(30, 30), "image/png")], {
      late: true,
      charged: 0,
    });
    await deliverOutputs(g, deps());
    const caption = String(lastCall("sendPhoto")?.caption);
    expect(caption).toContain(`\n${t("gen-late-free")}`);
    expect(caption).toContain("0 credits");
  });

  test("an album carries the caption on its first photo only, and replies to the request", async () => {
    const request = user.messages().at(0)?.message_id ?? 1;
    const urls = [1, 2].map((i) => serve(`/al${i}.png`, solidPng(20 * i, 20), "image/png"));
    const sent = await deliverOutputs(generation("image", urls, { replyToMessageId: request }), deps());
    const album = user.messages().filter((x) => sent.messageIds.includes(x.message_id));
    expect(album.map((m) => Boolean(m.caption))).toEqual([true, false]);
    expect(sent.fileIds).toHaveLength(2);
    expect(lastCall("sendMediaGroup")?.reply_parameters).toMatchObject({ message_id: request });
  });

  test("an album with one image over the photo limit goes as documents, all of them", async () => {
    const big = Buffer.concat([solidPng(16, 16), randomBytes(telegramLimits.photoMaxBytes + 1024)]);
    const urls = [serve("/ab1.png", big, "image/png"), serve("/ab2.png", solidPng(16, 16), "image/png")];
    const sent = await deliverOutputs(generation("image", urls), deps());
    const album = user.messages().filter((x) => sent.messageIds.includes(x.message_id));
    expect(album.map((m) => [Boolean(m.document), Boolean(m.photo), Boolean(m.caption)])).toEqual([
      [true, false, true],
      [true, false, false],
    ]);
    expect(sent.fileIds).toHaveLength(2);
  });

  test("one image over the photo limit goes as a document, its file id kept", async () => {
    const big = Buffer.concat([solidPng(16, 16), randomBytes(telegramLimits.photoMaxBytes + 1024)]);
    const sent = await deliverOutputs(generation("image", [serve("/d1.png", big, "image/png")]), deps());
    expect(sent.fileIds).toHaveLength(1);
  });

  test("a video goes as a video, with its chat action, file id kept", async () => {
    const g = generation("video", [serve("/v1.mp4", randomBytes(4096), "video/mp4")]);
    const sent = await deliverOutputs(g, deps());
    expect(tg.callsOf("sendChatAction").at(-1)?.params).toMatchObject({ action: "upload_video" });
    const m = user.messages().find((x) => x.message_id === sent.messageIds[0]);
    expect(m?.video).toBeDefined();
    expect(sent.fileIds).toHaveLength(1);
  });

  test("dubbed audio: upload_voice action, its real length, file id kept", async () => {
    const mp3 = readFileSync(new URL("../../../sandbox/simulator/fixtures/audio.mp3", import.meta.url));
    const { parseBuffer } = await import("music-metadata");
    const length = Math.max(1, Math.round((await parseBuffer(mp3, "audio/mpeg")).format.duration ?? 0));
    const g = generation("dub", [serve("/dub2/0.mp3", mp3, "audio/mpeg")], {
      params: {
        operation: "dub",
        source: { kind: "url", url: "https://media.example/talk.mp3" },
        targetLanguage: "fr",
        sourceLanguage: "en",
      },
    });
    const sent = await deliverOutputs(g, deps());
    expect(tg.callsOf("sendChatAction").at(-1)?.params).toMatchObject({ action: "upload_voice" });
    expect(lastCall("sendAudio")?.duration).toBe(length);
    expect(sent.fileIds).toHaveLength(1);
  });

  test("a link for a file over the upload limit: no file id, no link preview", async () => {
    const huge = randomBytes(telegramLimits.uploadMaxBytes + 1);
    const sent = await deliverOutputs(generation("video", [serve("/huge2.mp4", huge, "video/mp4")]), deps());
    expect(sent.messageIds).toHaveLength(1);
    expect(sent.fileIds).toEqual([]);
    expect(lastCall("sendMessage")?.link_preview_options).toEqual({ is_disabled: true });
    // caption, notice and link each on a line of their own: the link stays a link
    expect(String(lastCall("sendMessage")?.text)).toMatch(/\nhttps:\/\/bot\.example\.com\/files\//);
  });

  test("an image over the upload limit goes as a link too, not as an empty album", async () => {
    const huge = Buffer.concat([solidPng(16, 16), randomBytes(telegramLimits.uploadMaxBytes + 1)]);
    const albums = tg.callsOf("sendMediaGroup").length;
    const sent = await deliverOutputs(generation("image", [serve("/huge3.png", huge, "image/png")]), deps());
    expect(sent.messageIds).toHaveLength(1);
    expect(tg.callsOf("sendMediaGroup").length).toBe(albums);
    expect(String(lastCall("sendMessage")?.text)).toContain("https://bot.example.com/files/");
  });

  test("a video output that is neither video nor audio goes as a document", async () => {
    const documents = tg.callsOf("sendDocument").length;
    const g = generation("video", [serve("/odd-output", randomBytes(2048), "application/octet-stream")]);
    const sent = await deliverOutputs(g, deps());
    expect(tg.callsOf("sendDocument").length).toBe(documents + 1);
    expect(tg.callsOf("sendAudio").filter((c) => c.params.caption?.toString().includes("waves"))).toEqual([]);
    expect(sent.fileIds).toHaveLength(1);
  });

  test("a result in a forum topic goes to that topic, its chat action too", async () => {
    const g = generation("image", [serve("/topic.png", solidPng(24, 24), "image/png")], { threadId: 5 });
    await deliverOutputs(g, deps());
    expect(lastCall("sendPhoto")?.message_thread_id).toBe(5);
    expect(lastCall("sendChatAction")).toMatchObject({ action: "upload_photo", message_thread_id: 5 });
  });

  test("an edited image goes as a photo with both buttons, like a generated one", async () => {
    const g = generation("edit", [serve("/edit.png", solidPng(24, 24), "image/png")], {
      params: {
        operation: "edit",
        prompt: "make it blue",
        model: "nano-core-2",
        imageSize: "1:1",
        numImages: 1,
        images: [{ kind: "url", url: "https://media.example/in.png" }],
      },
    });
    const photos = tg.callsOf("sendPhoto").length;
    const sent = await deliverOutputs(g, deps());
    expect(tg.callsOf("sendPhoto").length).toBe(photos + 1);
    const m = user.messages().find((x) => x.message_id === sent.messageIds[0]);
    expect(m?.photo).toBeDefined();
    // again, edit, 4K
    expect(m?.reply_markup?.inline_keyboard.flat()).toHaveLength(3);
  });

  test("an image output that is not an image file goes as a document", async () => {
    const g = generation("image", [
      serve("/not-an-image", Buffer.from("%PDF-1.4 not a picture"), "application/pdf"),
    ]);
    const sent = await deliverOutputs(g, deps());
    const m = user.messages().find((x) => x.message_id === sent.messageIds[0]);
    expect(m?.document).toBeDefined();
    expect(m?.photo).toBeUndefined();
  });

  describe("the status message", () => {
    const shown: Array<[string, string, number | undefined]> = [];
    const recorder = {
      setStatusShown: async (id: string, text: string, messageId?: number) =>
        void shown.push([id, text, messageId]),
    } as Parameters<typeof showStatus>[1];
    const tFor = (lang: string, key: string, vars?: Record<string, string | number>) =>
      translate(languageFromCode(lang), key, vars);
    const delivered = (extra: Partial<Generation> = {}) =>
      generation("image", ["https://x/1.png"], { state: "delivered", ...extra });

    test("is edited in place to Done, without buttons (the result carries them), and what was shown is kept", async () => {
      const api = new Api(tg.token, { apiRoot: tg.apiRoot });
      const status = await api.sendMessage(user.chatId, "working on it");
      const g = delivered({ statusMessageId: status.message_id });
      const sends = tg.callsOf("sendMessage").length;
      shown.length = 0;
      await showStatus(api, recorder, g, tFor);
      const edit = lastCall("editMessageText");
      expect(edit).toMatchObject({ message_id: status.message_id, text: t("gen-done", { cost: 8 }) });
      expect(edit?.reply_markup).toBeUndefined();
      expect(tg.callsOf("sendMessage").length).toBe(sends);
      expect(shown).toEqual([[g.id, t("gen-done", { cost: 8 }), undefined]]);
    });

    test("is not edited when it already says that, nor for a generation without a chat", async () => {
      const api = new Api(tg.token, { apiRoot: tg.apiRoot });
      const status = await api.sendMessage(user.chatId, "working on it");
      const edits = tg.callsOf("editMessageText").length;
      const sends = tg.callsOf("sendMessage").length;
      await showStatus(
        api,
        recorder,
        delivered({
          statusMessageId: status.message_id,
          statusShown: t("gen-done", { cost: 8 }),
        }),
        tFor,
      );
      await showStatus(api, recorder, delivered({ chatId: null }), tFor);
      expect(tg.callsOf("editMessageText").length).toBe(edits);
      expect(tg.callsOf("sendMessage").length).toBe(sends);
    });

    test("a status message that is gone is replaced by a new one, as a reply to the request", async () => {
      const api = new Api(tg.token, { apiRoot: tg.apiRoot });
      const request = user.messages().at(0)?.message_id ?? 1;
      shown.length = 0;
      const g = delivered({ statusMessageId: 999_999, replyToMessageId: request, threadId: 5 });
      await showStatus(api, recorder, g, tFor);
      const sent = tg.callsOf("sendMessage").at(-1);
      expect(sent?.params).toMatchObject({ text: t("gen-done", { cost: 8 }), message_thread_id: 5 });
      expect(sent?.params.reply_parameters).toEqual({
        message_id: request,
        allow_sending_without_reply: true,
      });
      expect(shown.at(-1)?.[2]).toEqual(expect.any(Number));
      expect(shown.at(-1)?.[2]).toBe(
        (sent?.response as { result?: { message_id?: number } } | undefined)?.result?.message_id,
      );
    });

    test("an edit Telegram calls 'not modified' is recorded as shown; another failure is thrown", async () => {
      const api = new Api(tg.token, { apiRoot: tg.apiRoot });
      const status = await api.sendMessage(user.chatId, "working on it");
      shown.length = 0;
      tg.failNext("editMessageText", { code: 400, description: "Bad Request: message is not modified" });
      const g = delivered({ statusMessageId: status.message_id });
      await showStatus(api, recorder, g, tFor);
      expect(shown).toHaveLength(1);
      tg.failNext("editMessageText", { code: 500, description: "Internal Server Error" });
      await expect(showStatus(api, recorder, g, tFor)).rejects.toThrow();
    });
  });
});
