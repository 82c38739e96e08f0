import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Api } from "grammy";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TelegramStandIn, TestUser } from "../../../sandbox/playground/telegram";
import { solidPng } from "../../../sandbox/playground/telegram/images";
import { deliverOutputs, telegramLimits } from "../../../src/domain/generations/deliver/send-outputs";
import { verifyFileToken } from "../../../src/platform/storage/signed-tokens";
import { boundedAutoRetry } from "../../../src/platform/telegram/api-transformers";
import { type DeliveryRig, startDeliveryRig } from "../../support/delivery-rig";

/**
 * How results are sent: photo, album, document when Telegram would recompress
 * or refuse a photo, and a signed link when a file is over the upload limit.
 * Real Telegram rules (the stand-in), real files served over HTTP.
 */
describe("delivering outputs to Telegram", () => {
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

  test("one image goes as a photo with caption and buttons; the file_id is kept", async () => {
    const g = generation("image", [serve("/one.png", solidPng(64, 64), "image/png")]);
    const sent = await deliverOutputs(g, deps());
    expect(sent.messageIds).toHaveLength(1);
    expect(sent.fileIds).toHaveLength(1);
    const m = user.messages().find((x) => x.message_id === sent.messageIds[0]);
    expect(m?.photo).toBeDefined();
    expect(m?.caption).toContain("a lighthouse");
    // again, edit, 4K
    expect(m?.reply_markup?.inline_keyboard.flat()).toHaveLength(3);
    expect(tg.callsOf("sendChatAction").at(-1)?.params).toMatchObject({ action: "upload_photo" });
  });

  test("dubbed audio goes as audio named for its language, with its real length", async () => {
    const mp3 = readFileSync(new URL("../../../sandbox/simulator/fixtures/audio.mp3", import.meta.url));
    const g = generation("dub", [serve("/dub/0.mp3", mp3, "audio/mpeg")], {
      params: {
        operation: "dub",
        source: { kind: "url", url: "https://media.example/talk.mp3" },
        targetLanguage: "de",
        sourceLanguage: "en",
      },
    });
    await deliverOutputs(g, deps());
    const audio = (
      await user.waitFor((m) => m.audio !== undefined && m.caption?.includes("English → German"))
    ).audio!;
    expect(audio.file_name).toBe("dubbed-de.mp3");
    expect(audio.duration).toBeGreaterThan(0);
    expect(audio.title).toBe("English → German");
  });

  test("a dubbed track names its languages in the user's language, never by their codes", async () => {
    const mp3 = readFileSync(new URL("../../../sandbox/simulator/fixtures/audio.mp3", import.meta.url));
    const g = generation("dub", [serve("/dub/fa.mp3", mp3, "audio/mpeg")], {
      language: "fa",
      params: {
        operation: "dub",
        source: { kind: "url", url: "https://media.example/talk.mp3" },
        targetLanguage: "fa",
        sourceLanguage: "auto",
      },
    });
    const sent = await deliverOutputs(g, deps());
    const m = user.messages().find((x) => x.message_id === sent.messageIds[0]);
    const isolated = (text: string | undefined) => (text ?? "").replace(/[\u2068\u2069]/g, "");
    // detected, and the service did not say which: "dubbed into Persian", never "Auto-detect → Persian"
    expect(isolated(m?.caption)).toContain("دوبله به فارسی");
    expect(isolated(m?.audio?.title)).toBe("دوبله به فارسی");
    expect(m?.caption).not.toContain("تشخیص خودکار");
    expect(m?.caption).not.toContain("auto");
  });

  test("a caption is cut to Telegram's 1024 UTF-16 units, even for a prompt of emoji", async () => {
    const prompt = "🦊".repeat(900);
    const g = generation("image", [serve("/fox.png", solidPng(20, 20), "image/png")], {
      params: { operation: "image", prompt, model: "nano-core-2", imageSize: "1:1", numImages: 1 },
    });
    const sent = await deliverOutputs(g, deps());
    const m = user.messages().find((x) => x.message_id === sent.messageIds[0]);
    expect(m?.caption?.length).toBeLessThanOrEqual(1024);
    expect(m?.caption).toContain("🦊…");
  });

  test("two to four images go as one album", async () => {
    const urls = [1, 2, 3].map((i) => serve(`/a${i}.png`, solidPng(32 * i, 32), "image/png"));
    const sent = await deliverOutputs(generation("image", urls), deps());
    const album = user.messages().filter((x) => sent.messageIds.includes(x.message_id));
    expect(album).toHaveLength(3);
    expect(new Set(album.map((m) => m.media_group_id)).size).toBe(1);
    expect(album.every((m) => m.photo)).toBe(true);
  });

  test("an image over Telegram's 10 MB photo limit goes as a document, the original kept", async () => {
    const big = Buffer.concat([solidPng(16, 16), randomBytes(telegramLimits.photoMaxBytes + 1024)]);
    const sent = await deliverOutputs(generation("image", [serve("/big.png", big, "image/png")]), deps());
    const m = user.messages().find((x) => x.message_id === sent.messageIds[0]);
    expect(m?.document).toBeDefined();
    expect(m?.photo).toBeUndefined();
    expect(tg.fileBytes(m!.document!.file_id).length).toBe(big.length);
  });

  test("a file over the 50 MB upload limit goes as a signed link to our storage, living as long as the stored copy", async () => {
    const huge = randomBytes(telegramLimits.uploadMaxBytes + 1);
    const g = generation("video", [serve("/huge.mp4", huge, "video/mp4")]);
    const sent = await deliverOutputs(g, { ...deps(), retentionDays: 3 });
    const m = user.messages().find((x) => x.message_id === sent.messageIds[0]);
    const link = /https:\/\/bot\.example\.com\/files\/(\S+)/.exec(m?.text ?? "");
    expect(link).not.toBeNull();
    const verified = verifyFileToken(secret, link![1]!, Date.now());
    expect(verified).toMatchObject({ ok: true, payload: { k: "out", p: `${g.id}/0.mp4` } });
    expect(m?.text).toContain("works for 3 days");
    const expires = verified.ok ? verified.payload.e : 0;
    expect(Math.abs(expires - (Date.now() / 1000 + 3 * 86_400))).toBeLessThan(120);
    expect(tg.callsOf("sendVideo").length).toBe(0);
  });

  test("a 429 on an upload is retried with the same bytes (the file is reopened, not a spent stream)", async () => {
    const api = new Api(tg.token, { apiRoot: tg.apiRoot });
    api.config.use(boundedAutoRetry());
    tg.failNext("sendPhoto", { code: 429, description: "Too Many Requests: retry after 1", retryAfter: 1 });
    const png = solidPng(48, 48);
    const sent = await deliverOutputs(generation("image", [serve("/retry.png", png, "image/png")]), {
      ...deps(),
      api,
    });
    const m = user.messages().find((x) => x.message_id === sent.messageIds[0]);
    expect(m?.photo).toBeDefined();
    expect(tg.fileBytes(m!.photo!.at(-1)!.file_id).equals(png)).toBe(true);
  });

  test("a second delivery of the same generation re-reads the stored copy, not the service", async () => {
    const path = "/again.png";
    const g = generation("image", [serve(path, solidPng(40, 40), "image/png")]);
    await deliverOutputs(g, deps());
    rig.unserve(path);
    const again = await deliverOutputs(g, deps());
    expect(again.messageIds).toHaveLength(1);
  });
});
