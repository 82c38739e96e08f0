import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { Api } from "grammy";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { translate } from "../../../src/bot/i18n";
import type { Ledger } from "../../../src/credits/ledger";
import { generations as generationsTable } from "../../../src/db/schema";
import {
  type DeliverDeps,
  deliverGeneration,
  deliverJob,
  deliverJobHandler,
} from "../../../src/generations/deliver/deliver-step";
import { telegramLimits } from "../../../src/generations/deliver/send-outputs";
import { buttonsWindowMs } from "../../../src/generations/reads";
import { reconcile } from "../../../src/generations/reconciler";
import type { Generations } from "../../../src/generations/service";
import type { CreateInput, GenerationQueues } from "../../../src/generations/types";
import {
  type BotMessage,
  startTelegramStandIn,
  type TelegramStandIn,
  type TestGroup,
  type TestUser,
} from "../../../src/playground/telegram";
import { solidPng } from "../../../src/playground/telegram/images";
import { defaultPolicy } from "../../../src/runtime/settings";
import { createMediaStore } from "../../../src/storage/media-store";
import { languageFromCode } from "../../../src/users/language";
import { createTestDatabase, type TestDatabase } from "../../support/db";
import { outputLinks } from "../../support/delivery-rig";
import { plain } from "../../support/messages";
import { testGenerations } from "../../support/test-generations";

const en = (key: string, vars?: Record<string, string | number>) =>
  translate(languageFromCode("en"), key, vars);

/**
 * A delivered result shows its action buttons (again, edit, 4K) exactly once,
 * whatever was sent (one photo, an album, a video, a dubbed track, a link) and
 * wherever (a private chat, a forum topic): on the status message, which says
 * Done. Telegram's stand-in keeps every message as the user sees it.
 */
describe("a delivered result's buttons: one set, on the status message", () => {
  let root: string;
  let ledger: Ledger;
  let generations: Generations;
  let tg: TelegramStandIn;
  let files: Server;
  let base: string;
  let nextKey = 0;
  let database: TestDatabase;
  const served = new Map<string, { body: Buffer; type: string }>();
  const video = readFileSync(new URL("../../../src/simulator/fixtures/video-9x16.mp4", import.meta.url));
  const mp3 = readFileSync(new URL("../../../src/simulator/fixtures/audio.mp3", import.meta.url));

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ ledger, generations } = testGenerations(database.db));
    tg = await startTelegramStandIn({ rules: { flood: false } });
    root = await mkdtemp(join(tmpdir(), "msb-result-buttons-"));
    files = createServer((req, res) => {
      const f = served.get(req.url ?? "");
      if (!f) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": f.type, "content-length": f.body.length }).end(f.body);
    });
    await new Promise<void>((r) => files.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await tg?.close();
    files?.close();
    await rm(root, { recursive: true, force: true });
    await database?.drop();
  });

  function deps(extra: Partial<DeliverDeps> = {}): DeliverDeps {
    return {
      api: new Api(tg.token, { apiRoot: tg.apiRoot }),
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
    const path = `/out-${nextKey}-${served.size}`;
    served.set(path, { body, type });
    return `${base}${path}`;
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

  test("one picture: one keyboard, on the status message saying Done; the photo has none", async () => {
    const { user, place } = await privateUser();
    const { id, statusMessageId } = await completed(user, place, image(1), { images: pictures(1) });
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "delivered" });
    const messages = user.messages();
    const photos = messages.filter((m) => m.photo);
    expect(photos).toHaveLength(1);
    expect(photos[0]?.reply_markup).toBeUndefined();
    const keyboards = withActions(messages, id);
    expect(keyboards.map((m) => m.message_id)).toEqual([statusMessageId]);
    expect(plain(keyboards[0]?.text)).toContain("Done");
    expect(labels(keyboards[0])).toEqual(["🔁 Again", "✏️ Edit this", "⬆️ 4K"]);
  });

  test("an album: one keyboard with a 4K per picture, on the status message; no message besides the album", async () => {
    const { user, place } = await privateUser();
    const { id, statusMessageId } = await completed(user, place, image(3), { images: pictures(3) });
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "delivered" });
    const messages = user.messages();
    const album = messages.filter((m) => m.media_group_id);
    expect(album).toHaveLength(3);
    // the status message and the album: nothing else was sent
    expect(messages.map((m) => m.message_id)).toEqual([statusMessageId, ...album.map((m) => m.message_id)]);
    const keyboards = withActions(messages, id);
    expect(keyboards.map((m) => m.message_id)).toEqual([statusMessageId]);
    expect(labels(keyboards[0])).toEqual(["🔁 Again", "✏️ Edit this", "⬆️ 4K #1", "⬆️ 4K #2", "⬆️ 4K #3"]);
  });

  test("in a forum topic: the album and its one keyboard stay in the topic", async () => {
    const { user } = await privateUser();
    const group: TestGroup = tg.group({ forum: true, members: [user] });
    const threadId = group.createTopic(user, "pictures");
    const { id, statusMessageId } = await completed(user, { chatId: group.id, threadId }, image(2), {
      images: pictures(2),
    });
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "delivered" });
    const messages = user.messages({ in: group });
    const keyboards = withActions(messages, id);
    expect(keyboards.map((m) => m.message_id)).toEqual([statusMessageId]);
    expect(labels(keyboards[0])).toEqual(["🔁 Again", "✏️ Edit this", "⬆️ 4K #1", "⬆️ 4K #2"]);
    const album = messages.filter((m) => m.media_group_id);
    expect(album).toHaveLength(2);
    expect(album.every((m) => m.message_thread_id === threadId && !m.reply_markup)).toBe(true);
  });

  test("a picture too big to upload goes as a link: still one keyboard, 4K for the picture sent as a file only", async () => {
    const { user, place } = await privateUser();
    const small = solidPng(16, 16);
    const big = Buffer.concat([small, Buffer.alloc(4096)]);
    const { id, statusMessageId } = await completed(user, place, image(2), {
      images: [serve(small, "image/png"), serve(big, "image/png")],
    });
    const limits = { ...telegramLimits, uploadMaxBytes: small.length + 1024 };
    expect(await deliverGeneration(id, deps({ limits }))).toMatchObject({ kind: "delivered" });
    const messages = user.messages();
    expect(messages.filter((m) => m.photo)).toHaveLength(1);
    expect(messages.filter((m) => m.text?.includes("/files/"))).toHaveLength(1);
    const keyboards = withActions(messages, id);
    expect(keyboards.map((m) => m.message_id)).toEqual([statusMessageId]);
    expect(labels(keyboards[0])).toEqual(["🔁 Again", "✏️ Edit this", "⬆️ 4K"]);
  });

  test("a video and a dubbed track: Again once, on the status message", async () => {
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
    for (const g of [clip, dub]) {
      expect(await deliverGeneration(g.id, deps())).toMatchObject({ kind: "delivered" });
      const keyboards = withActions(user.messages(), g.id);
      expect(keyboards.map((m) => m.message_id)).toEqual([g.statusMessageId]);
      expect(labels(keyboards[0])).toEqual(["🔁 Again"]);
    }
    expect(user.messages().filter((m) => m.video || m.audio)).toHaveLength(2);
  });

  test("a status edit failing in passing after the result is sent: the next run shows the buttons, sending nothing again", async () => {
    const { user, place } = await privateUser();
    const { id, statusMessageId } = await completed(user, place, image(2), { images: pictures(2) });
    tg.failNext("editMessageText", { code: 500, description: "Internal Server Error" });
    await expect(deliverGeneration(id, deps())).rejects.toThrow();
    expect(await generations.get(id)).toMatchObject({ state: "delivered" });
    expect(withActions(user.messages(), id)).toEqual([]);
    const albums = tg.callsOf("sendMediaGroup").length;

    expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
    expect(tg.callsOf("sendMediaGroup").length).toBe(albums);
    expect(user.messages().filter((m) => m.media_group_id)).toHaveLength(2);
    const keyboards = withActions(user.messages(), id);
    expect(keyboards.map((m) => m.message_id)).toEqual([statusMessageId]);
    expect(plain(keyboards[0]?.text)).toContain("Done");
    // shown once: a further run edits nothing
    const edits = tg.callsOf("editMessageText").length;
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
    expect(tg.callsOf("editMessageText").length).toBe(edits);
  });

  test("a status message Telegram refuses for good does not undo the delivery", async () => {
    const { user, place } = await privateUser();
    const { id } = await completed(user, place, image(1), { images: pictures(1) });
    tg.failNext("editMessageText", { code: 400, description: "Bad Request: can't parse entities" });
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "delivered" });
    expect(await generations.get(id)).toMatchObject({ state: "delivered" });
    expect(user.messages().filter((m) => m.photo)).toHaveLength(1);
  });

  /**
   * One reconciliation round whose deliver jobs run at once, one attempt each, as
   * a worker would run them: the ids the round handed to the deliver queue.
   */
  async function reconcileRound(extra: Partial<DeliverDeps> = {}): Promise<string[]> {
    const handed: string[] = [];
    const handler = deliverJobHandler(deps(extra));
    const queues: GenerationQueues = {
      submit: async () => {},
      sync: async () => {},
      deliver: async (gid) => {
        handed.push(gid);
        await handler.handle({ v: 1, gid }, { final: false }).catch(() => undefined);
      },
    };
    await reconcile(generations, queues, pino({ level: "silent" }));
    return handed;
  }

  /** The edits of one status message, successful or not. */
  const editsOf = (chatId: number, messageId: number) =>
    tg
      .callsOf("editMessageText")
      .filter((c) => c.params.chat_id === chatId && c.params.message_id === messageId);

  test("a status edit failing for every attempt of the deliver job: one reconciliation round shows the buttons once, a second does nothing", async () => {
    const { user, place } = await privateUser();
    const { id, statusMessageId } = await completed(user, place, image(1), { images: pictures(1) });
    const attempts = deliverJob.policy.attempts;
    tg.failNext("editMessageText", { code: 500, description: "Internal Server Error" }, attempts);
    const handler = deliverJobHandler(deps());
    for (let attempt = 1; attempt <= attempts; attempt++) {
      await expect(handler.handle({ v: 1, gid: id }, { final: attempt === attempts })).rejects.toThrow();
    }
    // the job is spent (and removed): the result is in the chat, its status without buttons
    expect(await generations.get(id)).toMatchObject({ state: "delivered" });
    expect(editsOf(user.chatId, statusMessageId)).toHaveLength(attempts);
    expect(withActions(user.messages(), id)).toEqual([]);

    expect(await reconcileRound()).toContain(id);
    const keyboards = withActions(user.messages(), id);
    expect(keyboards.map((m) => m.message_id)).toEqual([statusMessageId]);
    expect(plain(keyboards[0]?.text)).toContain("Done");
    expect(labels(keyboards[0])).toEqual(["🔁 Again", "✏️ Edit this", "⬆️ 4K"]);
    expect(editsOf(user.chatId, statusMessageId)).toHaveLength(attempts + 1);
    expect(user.messages().filter((m) => m.photo)).toHaveLength(1);

    expect(await reconcileRound()).not.toContain(id);
    expect(editsOf(user.chatId, statusMessageId)).toHaveLength(attempts + 1);
  });

  test.each([
    { code: 400, description: "Bad Request: can't parse entities", blocks: false },
    { code: 403, description: "Forbidden: bot was blocked by the user", blocks: true },
  ])(
    "a status Telegram refuses for good ($description) is given up: later rounds leave the row alone",
    async (refusal) => {
      const { user, place } = await privateUser();
      const { id, statusMessageId } = await completed(user, place, image(1), { images: pictures(1) });
      const blocked: number[] = [];
      const markBlocked = async (userId: number) => void blocked.push(userId);
      tg.failNext("editMessageText", { code: refusal.code, description: refusal.description });
      expect(await deliverGeneration(id, deps({ markBlocked }))).toMatchObject({ kind: "delivered" });
      expect(editsOf(user.chatId, statusMessageId)).toHaveLength(1);
      expect(blocked).toEqual(refusal.blocks ? [user.id] : []);

      expect(await reconcileRound({ markBlocked })).not.toContain(id);
      expect(await reconcileRound({ markBlocked })).not.toContain(id);
      expect(editsOf(user.chatId, statusMessageId)).toHaveLength(1);
      expect(withActions(user.messages(), id)).toEqual([]);
      expect(await generations.get(id)).toMatchObject({ state: "delivered" });
    },
  );

  test("a result that never reached its chat is not shown as Done by a later round", async () => {
    const { user, place } = await privateUser();
    const { id, statusMessageId } = await completed(user, place, image(1), { images: pictures(1) });
    tg.failNext("sendPhoto", { code: 403, description: "Forbidden: bot was blocked by the user" });
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "unreachable" });
    expect(await generations.get(id)).toMatchObject({ state: "delivered", deliveredMessageIds: [] });
    expect(await reconcileRound()).not.toContain(id);
    expect(editsOf(user.chatId, statusMessageId)).toEqual([]);
    expect(withActions(user.messages(), id)).toEqual([]);
  });

  test("a round brings the buttons of a result delivered within the window in a chat only: not an older one, not an inline one", async () => {
    const { user, place } = await privateUser();
    // delivered, then the job was lost (Redis flushed) before the status said Done
    const lostJob = async () => {
      const { id } = await completed(user, place, image(1), { images: pictures(1) });
      await generations.startDelivery(id);
      await generations.finishDelivery(id, [], []);
      return id;
    };
    const recent = await lostJob();
    const old = await lostJob();
    await database.db
      .update(generationsTable)
      .set({ updatedAt: new Date(Date.now() - buttonsWindowMs - 60_000) })
      .where(eq(generationsTable.id, old));
    const key = `buttons-inline-${nextKey++}`;
    await ledger.grant({ userId: user.id, amount: 100, key: `grant-${key}` });
    const r = await generations.create({
      key,
      userId: user.id,
      language: "en",
      chat: { chatId: null, inlineMessageId: `inline-${key}` },
      params: image(1),
    });
    if (!r.ok) throw new Error(`not created: ${r.reason}`);
    const inline = r.generation.id;
    await generations.startSubmit(inline);
    await generations.accept(inline, { taskId: `task-${key}` });
    await generations.complete(inline, { images: pictures(1), videos: [], audios: [] });
    await generations.startDelivery(inline);
    await generations.finishDelivery(inline, [], []);
    expect(await generations.get(inline)).toMatchObject({ state: "delivered", statusShown: null });

    const handed = await reconcileRound();
    expect(handed).toContain(recent);
    expect(handed).not.toContain(old);
    expect(handed).not.toContain(inline);
    expect(withActions(user.messages(), recent)).toHaveLength(1);
    expect(withActions(user.messages(), old)).toEqual([]);
  });
});
