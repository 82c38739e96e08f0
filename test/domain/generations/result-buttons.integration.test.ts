import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Api } from "grammy";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type BotMessage,
  startTelegramStandIn,
  type TelegramStandIn,
  type TestGroup,
  type TestUser,
} from "../../../sandbox/playground/telegram";
import { solidPng } from "../../../sandbox/playground/telegram/images";
import type { Ledger } from "../../../src/domain/credits/ledger";
import { type DeliverDeps, deliverGeneration } from "../../../src/domain/generations/deliver/deliver-step";
import { telegramLimits } from "../../../src/domain/generations/deliver/send-outputs";
import type { Generations } from "../../../src/domain/generations/service";
import type { CreateInput } from "../../../src/domain/generations/types";
import { translate } from "../../../src/platform/i18n/i18n";
import { languageFromCode } from "../../../src/platform/i18n/language";
import { createMediaStore } from "../../../src/platform/storage/media-store";
import { defaultPolicy } from "../../../src/runtime/settings";
import { createTestDatabase, type TestDatabase } from "../../support/db";
import { outputLinks } from "../../support/delivery-rig";
import { type FileServer, startFileServer } from "../../support/file-server";
import { linkedApi } from "../../support/linked-api";
import { plain } from "../../support/messages";
import { testGenerations } from "../../support/test-generations";

const en = (key: string, vars?: Record<string, string | number>) =>
  translate(languageFromCode("en"), key, vars);

/**
 * A delivered result shows its action buttons (again, edit, 4K) exactly once,
 * whatever was sent (one photo, an album, a video, a dubbed track, a link) and
 * wherever (a private chat, a forum topic): under the result, sent with it (an
 * album, which cannot carry a keyboard, gets one message replying to it), below
 * the status message, which says Done without any. Telegram's stand-in keeps
 * every message as the user sees it.
 */
describe("a delivered result's buttons: one set, under the result", () => {
  let root: string;
  let ledger: Ledger;
  let generations: Generations;
  let tg: TelegramStandIn;
  let files: FileServer;
  let nextKey = 0;
  let database: TestDatabase;
  const video = readFileSync(new URL("../../../sandbox/simulator/fixtures/video-9x16.mp4", import.meta.url));
  const mp3 = readFileSync(new URL("../../../sandbox/simulator/fixtures/audio.mp3", import.meta.url));

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ ledger, generations } = testGenerations(database.db));
    tg = await startTelegramStandIn({ rules: { flood: false } });
    root = await mkdtemp(join(tmpdir(), "msb-result-buttons-"));
    files = await startFileServer();
  });
  afterAll(async () => {
    await tg?.close();
    await files?.close();
    await rm(root, { recursive: true, force: true });
    await database?.drop();
  });

  function deps(extra: Partial<DeliverDeps> = {}): DeliverDeps {
    return {
      ...linkedApi(tg),
      store: createMediaStore(root),
      t: (lang, key, vars) => translate(languageFromCode(lang), key, vars),
      outputUrl: outputLinks("result-buttons-secret-0123456789abcdef"),
      generations,
      logger: pino({ level: "silent" }),
      markBlocked: async () => {},
      maxDeliveryAttempts: defaultPolicy.maxDeliveryAttempts,
      retentionDays: 7,
      ...extra,
    };
  }

  function serve(body: Buffer, type: string): string {
    return files.serve(`/out-${nextKey}-${files.size()}`, body, type);
  }

  const pictures = (count: number) =>
    Array.from({ length: count }, (_, i) => serve(solidPng(16 + 8 * i, 16), "image/png"));

  interface Place {
    chatId: number;
    threadId?: number;
  }

  /**
   * A completed generation of `user` in `place`, its status message shown there
   * as the confirmed panel is, waiting to be delivered.
   */
  async function completed(
    user: TestUser,
    place: Place,
    params: CreateInput["params"],
    outputs: { images?: string[]; videos?: string[]; audios?: string[] },
  ) {
    const key = `buttons-${nextKey++}`;
    await ledger.grant({ userId: user.id, amount: 100, key: `grant-${key}` });
    const api = new Api(tg.token, { apiRoot: tg.apiRoot });
    const status = await api.sendMessage(place.chatId, en("gen-queued"), {
      ...(place.threadId ? { message_thread_id: place.threadId } : {}),
    });
    const r = await generations.create({
      key,
      userId: user.id,
      language: "en",
      chat: { ...place, statusMessageId: status.message_id },
      params,
    });
    if (!r.ok) throw new Error(`not created: ${r.reason}`);
    const id = r.generation.id;
    await generations.startSubmit(id);
    await generations.accept(id, { taskId: `task-${key}` });
    const done = await generations.complete(id, {
      images: outputs.images ?? [],
      videos: outputs.videos ?? [],
      audios: outputs.audios ?? [],
    });
    if (!done) throw new Error("not completed");
    return { id, statusMessageId: status.message_id };
  }

  const image = (numImages: number) =>
    ({ operation: "image", prompt: "a fox", model: "nano-core-2", imageSize: "1:1", numImages }) as const;

  async function privateUser() {
    const user = tg.user();
    await user.send("/start");
    return { user, place: { chatId: user.chatId } };
  }

  /** Every message in the place whose keyboard acts on generation `id`. */
  const withActions = (messages: BotMessage[], id: string) =>
    messages.filter((m) =>
      (m.reply_markup?.inline_keyboard.flat() ?? []).some(
        (b) => "callback_data" in b && b.callback_data.includes(id),
      ),
    );
  const labels = (m: BotMessage | undefined) => m?.reply_markup?.inline_keyboard.flat().map((b) => b.text);

  /**
   * The one message carrying `id`'s buttons, checked to come after its status
   * message, which says Done and carries none.
   */
  function theOneSet(messages: BotMessage[], id: string, statusMessageId: number): BotMessage {
    const status = messages.find((m) => m.message_id === statusMessageId);
    expect(plain(status?.text)).toContain("Done");
    expect(status?.reply_markup).toBeUndefined();
    const keyboards = withActions(messages, id);
    expect(keyboards).toHaveLength(1);
    const [one] = keyboards;
    if (!one) throw new Error("no message carries the buttons");
    expect(one.message_id).toBeGreaterThan(statusMessageId);
    return one;
  }

  const sends = () =>
    ["sendPhoto", "sendMediaGroup", "sendMessage", "sendVideo", "sendAudio", "sendDocument"].map(
      (method) => tg.callsOf(method).length,
    );

  test("one picture: the photo carries the keyboard; Done has none", async () => {
    const { user, place } = await privateUser();
    const { id, statusMessageId } = await completed(user, place, image(1), { images: pictures(1) });
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "delivered" });
    const messages = user.messages();
    const photos = messages.filter((m) => m.photo);
    expect(photos).toHaveLength(1);
    const one = theOneSet(messages, id, statusMessageId);
    expect(one.message_id).toBe(photos[0]?.message_id);
    expect(labels(one)).toEqual(["🔁 Again", "✏️ Edit this", "⬆️ 4K"]);
  });

  /** Checks an album of `count` delivered for `id` and returns its actions message (in a group, with ⚠️ Report). */
  function albumAndActions(
    messages: BotMessage[],
    id: string,
    statusMessageId: number,
    count: number,
    inGroup = false,
  ) {
    const album = messages.filter((m) => m.media_group_id);
    expect(album).toHaveLength(count);
    expect(album.every((m) => !m.reply_markup)).toBe(true);
    const actions = theOneSet(messages, id, statusMessageId);
    expect(plain(actions.text)).toBe(en("ra-actions"));
    expect(actions.reply_to_message?.message_id).toBe(album[0]?.message_id);
    // after the album: status, album, then its actions
    expect(messages.map((m) => m.message_id).slice(-(count + 2))).toEqual([
      statusMessageId,
      ...album.map((m) => m.message_id),
      actions.message_id,
    ]);
    expect(labels(actions)).toEqual([
      "🔁 Again",
      "✏️ Edit this",
      ...Array.from({ length: count }, (_, i) => `⬆️ 4K #${i + 1}`),
      ...(inGroup ? ["⚠️ Report"] : []),
    ]);
    return actions;
  }

  test("an album of 3: one message after it, replying to it, carries the keyboard with a 4K per picture", async () => {
    const { user, place } = await privateUser();
    const { id, statusMessageId } = await completed(user, place, image(3), { images: pictures(3) });
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "delivered" });
    const actions = albumAndActions(user.messages(), id, statusMessageId, 3);
    // not one of the result's messages: the album is what was delivered
    const row = await generations.get(id);
    expect(row?.deliveredMessageIds).toHaveLength(3);
    expect(row?.deliveredMessageIds).not.toContain(actions.message_id);
    expect(row?.fileIds).toHaveLength(3);
  });

  test("in a forum topic: the album of 3 and its actions message stay in the topic", async () => {
    const { user } = await privateUser();
    const group: TestGroup = tg.group({ forum: true, members: [user] });
    const threadId = group.createTopic(user, "pictures");
    const { id, statusMessageId } = await completed(user, { chatId: group.id, threadId }, image(3), {
      images: pictures(3),
    });
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "delivered" });
    const messages = user.messages({ in: group }).filter((m) => m.message_thread_id === threadId);
    const actions = albumAndActions(messages, id, statusMessageId, 3, true);
    expect(actions.message_thread_id).toBe(threadId);
    expect(withActions(user.messages({ in: group }), id)).toHaveLength(1);
  });

  test("a picture too big to upload goes as a link: the link message carries the keyboard, without a 4K", async () => {
    const { user, place } = await privateUser();
    const big = Buffer.concat([solidPng(16, 16), Buffer.alloc(4096)]);
    const { id, statusMessageId } = await completed(user, place, image(1), {
      images: [serve(big, "image/png")],
    });
    const limits = { ...telegramLimits, uploadMaxBytes: 1024 };
    expect(await deliverGeneration(id, deps({ limits }))).toMatchObject({ kind: "delivered" });
    const messages = user.messages();
    expect(messages.filter((m) => m.photo)).toHaveLength(0);
    const one = theOneSet(messages, id, statusMessageId);
    expect(one.text).toContain("/files/");
    expect(labels(one)).toEqual(["🔁 Again", "✏️ Edit this"]);
  });

  test("a picture sent and one too big, as a link: one keyboard, on the link sent last, 4K for the picture sent", async () => {
    const { user, place } = await privateUser();
    const small = solidPng(16, 16);
    const big = Buffer.concat([small, Buffer.alloc(4096)]);
    const { id, statusMessageId } = await completed(user, place, image(2), {
      images: [serve(small, "image/png"), serve(big, "image/png")],
    });
    const limits = { ...telegramLimits, uploadMaxBytes: small.length + 1024 };
    expect(await deliverGeneration(id, deps({ limits }))).toMatchObject({ kind: "delivered" });
    const messages = user.messages();
    const photo = messages.find((m) => m.photo);
    expect(photo?.reply_markup).toBeUndefined();
    const one = theOneSet(messages, id, statusMessageId);
    expect(one.text).toContain("/files/");
    expect(one.message_id).toBeGreaterThan(photo?.message_id ?? Number.POSITIVE_INFINITY);
    expect(labels(one)).toEqual(["🔁 Again", "✏️ Edit this", "⬆️ 4K"]);
  });

  test("a video and a dubbed track: each carries Again itself", async () => {
    const { user, place } = await privateUser();
    const clip = await completed(
      user,
      place,
      {
        operation: "video",
        prompt: "waves",
        model: "video-a-v3-turbo",
        duration: 5,
        resolution: "720p",
        aspectRatio: "9:16",
      },
      { videos: [serve(video, "video/mp4")] },
    );
    const dub = await completed(
      user,
      place,
      {
        operation: "dub",
        source: { kind: "url", url: "https://media.example/talk.mp3" },
        targetLanguage: "de",
        sourceLanguage: "en",
      },
      { audios: [serve(mp3, "audio/mpeg")] },
    );
    for (const [g, kind] of [
      [clip, "video"],
      [dub, "audio"],
    ] as const) {
      expect(await deliverGeneration(g.id, deps())).toMatchObject({ kind: "delivered" });
      const one = theOneSet(user.messages(), g.id, g.statusMessageId);
      expect(one[kind]).toBeDefined();
      expect(labels(one)).toEqual(["🔁 Again"]);
    }
    expect(user.messages().filter((m) => m.video || m.audio)).toHaveLength(2);
  });

  test.each([1, 3])(
    "a redelivery after a crash once the result (%i pictures) is sent and recorded sends nothing twice, and says Done",
    async (count) => {
      const { user, place } = await privateUser();
      const { id, statusMessageId } = await completed(user, place, image(count), {
        images: pictures(count),
      });
      // the worker dies once `delivered` is recorded, before the status says Done
      const crashing = {
        ...generations,
        finishDelivery: async (...args: Parameters<Generations["finishDelivery"]>) => {
          await generations.finishDelivery(...args);
          throw new Error("worker killed");
        },
      };
      await expect(deliverGeneration(id, deps({ generations: crashing }))).rejects.toThrow("worker killed");
      expect(await generations.get(id)).toMatchObject({ state: "delivered" });
      const before = sends();
      expect(plain(user.messages().find((m) => m.message_id === statusMessageId)?.text)).not.toContain(
        "Done",
      );

      expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
      expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
      expect(sends()).toEqual(before);
      const messages = user.messages();
      expect(messages.filter((m) => m.photo)).toHaveLength(count);
      if (count > 1) albumAndActions(messages, id, statusMessageId, count);
      else expect(theOneSet(messages, id, statusMessageId).photo).toBeDefined();
    },
  );

  test("the Done edit failing in passing: the result keeps its buttons, nothing is thrown or sent again", async () => {
    const { user, place } = await privateUser();
    const { id, statusMessageId } = await completed(user, place, image(3), { images: pictures(3) });
    tg.failNext("editMessageText", { code: 500, description: "Internal Server Error" });
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "delivered" });
    const before = sends();
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
    expect(sends()).toEqual(before);
    const messages = user.messages();
    expect(messages.filter((m) => m.media_group_id)).toHaveLength(3);
    const keyboards = withActions(messages, id);
    expect(keyboards.map((m) => plain(m.text))).toEqual([en("ra-actions")]);
    expect(keyboards[0]?.message_id).toBeGreaterThan(statusMessageId);
  });

  test("a status message Telegram refuses for good does not undo the delivery", async () => {
    const { user, place } = await privateUser();
    const { id } = await completed(user, place, image(1), { images: pictures(1) });
    tg.failNext("editMessageText", { code: 400, description: "Bad Request: can't parse entities" });
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "delivered" });
    expect(await generations.get(id)).toMatchObject({ state: "delivered" });
    const photos = user.messages().filter((m) => m.photo);
    expect(photos).toHaveLength(1);
    expect(withActions(user.messages(), id).map((m) => m.message_id)).toEqual([photos[0]?.message_id]);
  });

  test("an album's actions message Telegram refuses: the album stays delivered, sent once, not refunded", async () => {
    const { user, place } = await privateUser();
    const { id } = await completed(user, place, image(3), { images: pictures(3) });
    tg.failNext("sendMessage", { code: 500, description: "Internal Server Error" });
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "delivered" });
    const albums = tg.callsOf("sendMediaGroup").length;
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
    expect(tg.callsOf("sendMediaGroup").length).toBe(albums);
    expect(user.messages().filter((m) => m.media_group_id)).toHaveLength(3);
    expect(await generations.get(id)).toMatchObject({ state: "delivered", charged: expect.any(Number) });
    expect((await generations.get(id))?.error).toBeNull();
  });

  test("a result that never reached its chat is not said to be done, even by a later run", async () => {
    const { user, place } = await privateUser();
    const { id, statusMessageId } = await completed(user, place, image(1), { images: pictures(1) });
    tg.failNext("sendPhoto", { code: 403, description: "Forbidden: bot was blocked by the user" });
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "unreachable" });
    expect(await generations.get(id)).toMatchObject({ state: "delivered", deliveredMessageIds: [] });
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
    const edits = tg
      .callsOf("editMessageText")
      .filter((c) => c.params.chat_id === user.chatId && c.params.message_id === statusMessageId);
    expect(edits).toEqual([]);
    expect(withActions(user.messages(), id)).toEqual([]);
  });
});
