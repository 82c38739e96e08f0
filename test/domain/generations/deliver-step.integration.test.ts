import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  startTelegramStandIn,
  type TelegramStandIn,
  type TestUser,
} from "../../../sandbox/playground/telegram";
import { solidPng } from "../../../sandbox/playground/telegram/images";
import type { Ledger } from "../../../src/domain/credits/ledger";
import {
  type DeliverDeps,
  deliverGeneration,
  deliverJob,
  deliverJobHandler,
} from "../../../src/domain/generations/deliver/deliver-step";
import type { Generations } from "../../../src/domain/generations/service";
import { createUsers, type Users } from "../../../src/domain/users/users";
import { translate } from "../../../src/platform/i18n/i18n";
import { languageFromCode } from "../../../src/platform/i18n/language";
import { createMediaStore } from "../../../src/platform/storage/media-store";
import { defaultPolicy } from "../../../src/runtime/settings";
import { blockedUserIds } from "../../support/blocked-users";
import { createTestDatabase, type TestDatabase } from "../../support/db";
import { outputLinks } from "../../support/delivery-rig";
import { type FileServer, startFileServer } from "../../support/file-server";
import { linkedApi } from "../../support/linked-api";
import { testGenerations } from "../../support/test-generations";

/**
 * The deliver step on real Postgres and the Telegram stand-in: what happens
 * when a send fails (gives up, falls back to the chat, marks the user blocked,
 * reports Telegram's flood control).
 */
describe("the deliver step", () => {
  let database: TestDatabase;
  let ledger: Ledger;
  let generations: Generations;
  let users: Users;
  let tg: TelegramStandIn;
  let files: FileServer;
  let root: string;
  let nextKey = 0;
  const png = solidPng(32, 32);

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ ledger, generations } = testGenerations(database.db));
    users = createUsers(database.db, ledger, { welcomeCredits: 0 });
    tg = await startTelegramStandIn({ rules: { flood: false } });
    root = await mkdtemp(join(tmpdir(), "msb-deliver-step-"));
    files = await startFileServer({ fallback: { body: png, type: "image/png" } });
  });
  afterAll(async () => {
    await tg?.close();
    await files?.close();
    await rm(root, { recursive: true, force: true });
    await database?.drop();
  });
  beforeEach(() => {
    files.setOutage(undefined);
  });

  function deps(): DeliverDeps {
    return {
      ...linkedApi(tg),
      store: createMediaStore(root),
      t: (lang, key, vars) => translate(languageFromCode(lang), key, vars),
      outputUrl: outputLinks("deliver-step-secret-0123456789abcdef"),
      generations,
      logger: pino({ level: "silent" }),
      // as the worker wires it: the users store, on Postgres
      markBlocked: async (userId) => {
        await users.markBlocked(userId);
      },
      maxDeliveryAttempts: defaultPolicy.maxDeliveryAttempts,
      retentionDays: 7,
    };
  }

  /** A completed image generation of `user`, charged, waiting to be delivered. */
  async function completed(user: TestUser, threadId?: number, statusMessageId?: number) {
    const key = `deliver-${nextKey++}`;
    await ledger.grant({ userId: user.id, amount: 100, key: `grant-${key}` });
    const r = await generations.create({
      key,
      userId: user.id,
      language: "en",
      chat: {
        chatId: user.chatId,
        ...(threadId ? { threadId } : {}),
        ...(statusMessageId ? { statusMessageId } : {}),
      },
      params: { operation: "image", prompt: "a fox", model: "nano-core-2", imageSize: "1:1", numImages: 1 },
    });
    if (!r.ok) throw new Error(`not created: ${r.reason}`);
    const id = r.generation.id;
    await generations.startSubmit(id);
    await generations.accept(id, { taskId: `task-${key}` });
    const done = await generations.complete(id, {
      images: [`${files.base}/${key}.png`],
      videos: [],
      audios: [],
    });
    if (!done) throw new Error("not completed");
    return { id, price: r.generation.price };
  }

  /** A user who started the bot: known to Telegram's stand-in, and a `users` row as the bot's update handling writes it. */
  async function startedUser() {
    const user = tg.user();
    await user.send("/start");
    await users.touch(user.info, user.chat);
    return user;
  }

  const photosTo = (user: TestUser) =>
    tg.callsOf("sendPhoto").filter((c) => Number(c.params.chat_id) === user.chatId).length;

  test("a result that failed 12 sends is refunded and the user told; the 13th call sends nothing", async () => {
    const user = await startedUser();
    const { id } = await completed(user);
    files.setOutage(500);
    for (let attempt = 1; attempt <= 12; attempt++) {
      await expect(deliverGeneration(id, deps())).rejects.toThrow();
    }
    expect((await generations.get(id))?.deliveryAttempts).toBe(12);
    files.setOutage(undefined);
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "notified" });
    const g = await generations.get(id);
    expect(g).toMatchObject({ state: "failed", error: { reason: "undeliverable" } });
    expect(await ledger.account(user.id)).toEqual({ userId: user.id, available: 100, held: 0 });
    expect(user.messages().some((m) => m.photo)).toBe(false);
    expect(await ledger.audit()).toEqual([]);
  });

  test("a closed forum topic: the next attempt answers in the chat itself", async () => {
    const user = await startedUser();
    const { id } = await completed(user, 77);
    tg.failNext("sendPhoto", { code: 400, description: "Bad Request: message thread not found" });
    await expect(deliverGeneration(id, deps())).rejects.toThrow(/thread not found/);
    expect((await generations.get(id))?.threadId).toBeNull();
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "delivered" });
    const sends = tg.callsOf("sendPhoto").filter((c) => Number(c.params.chat_id) === user.chatId);
    expect(sends.at(-1)?.params.message_thread_id).toBeUndefined();
    expect((await generations.get(id))?.state).toBe("delivered");
  });

  test("a user who blocked the bot is marked blocked; the result is kept, not retried", async () => {
    const user = await startedUser();
    const bystander = await startedUser();
    const { id } = await completed(user);
    const before = await blockedUserIds(database.db);
    expect(before).not.toContain(user.id);
    const d = deps();
    tg.failNext("sendPhoto", { code: 403, description: "Forbidden: bot was blocked by the user" });
    expect(await deliverGeneration(id, d)).toEqual({
      kind: "unreachable",
      reason: "Forbidden: bot was blocked by the user",
    });
    expect(photosTo(user)).toBe(1);

    // marked blocked in Postgres: this user, and nobody else
    expect((await users.get(user.id))?.blockedAt).toBeInstanceOf(Date);
    expect((await users.get(bystander.id))?.blockedAt).toBeNull();
    expect(await blockedUserIds(database.db)).toEqual([...before, user.id].sort((a, b) => a - b));

    // kept: the generation is settled as delivered with nothing shown, its charge stays
    // taken (no refund, no hold released), and our copy of the output is still stored
    const g = await generations.get(id);
    expect(g).toMatchObject({
      state: "delivered",
      deliveryAttempts: 1,
      deliveredMessageIds: [],
      fileIds: [],
      error: null,
    });
    expect(g?.charged).toBeGreaterThan(0);
    expect(await ledger.account(user.id)).toEqual({
      userId: user.id,
      available: 100 - (g?.charged ?? 0),
      held: 0,
    });
    expect(await ledger.audit({ userId: user.id })).toEqual([]);
    const stored = await createMediaStore(root).existing(`${id}/0.png`);
    expect(stored?.size).toBe(png.length);

    // not retried: another run finds nothing to do and sends Telegram nothing more
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
    expect(photosTo(user)).toBe(1);
    expect(await generations.get(id)).toMatchObject({ state: "delivered", deliveryAttempts: 1 });
    expect(await ledger.account(user.id)).toMatchObject({ available: 100 - (g?.charged ?? 0), held: 0 });
  });

  test("Telegram's flood control on a send becomes a flood outcome with its wait", async () => {
    const user = await startedUser();
    const { id } = await completed(user);
    tg.failNext("sendPhoto", { code: 429, description: "Too Many Requests: retry after 42", retryAfter: 42 });
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "flood", retryAfterSeconds: 42 });
  });

  test("the deliver job: on the deliver queue, its data checked; a flood pauses the queue for its wait, else done", async () => {
    expect(deliverJob).toMatchObject({
      queue: { name: "deliver", limiter: "telegram-sends" },
      name: "deliver",
      label: "deliver",
    });
    const handler = deliverJobHandler(deps());
    expect(handler).toMatchObject({ queue: { name: "deliver" }, name: "deliver", label: "deliver" });
    const user = await startedUser();
    const flooded = await completed(user);
    tg.failNext("sendPhoto", { code: 429, description: "Too Many Requests: retry after 42", retryAfter: 42 });
    expect(await handler.handle({ v: 1, gid: flooded.id }, { final: false })).toEqual({
      kind: "pause",
      outcome: "flood",
      realMs: 42_000,
    });
    expect(await handler.handle({ v: 1, gid: flooded.id }, { final: false })).toEqual({
      kind: "done",
      outcome: "delivered",
    });
    await expect(handler.handle({ v: 2, gid: flooded.id }, { final: false })).rejects.toThrow();
    await expect(handler.handle({ v: 1, gid: "not-a-uuid" }, { final: false })).rejects.toThrow();
  });

  test("a generation that failed is told once: the notice, then nothing on a second run", async () => {
    const user = await startedUser();
    const key = `deliver-${nextKey++}`;
    await ledger.grant({ userId: user.id, amount: 100, key: `grant-${key}` });
    const r = await generations.create({
      key,
      userId: user.id,
      language: "en",
      chat: { chatId: user.chatId },
      params: { operation: "image", prompt: "a fox", model: "nano-core-2", imageSize: "1:1", numImages: 1 },
    });
    if (!r.ok) throw new Error("not created");
    const id = r.generation.id;
    await generations.startSubmit(id);
    await generations.accept(id, { taskId: `task-${key}` });
    await generations.fail(id, { reason: "task_failed" });
    const before = user.messages().length;
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "notified" });
    expect(user.messages().length).toBe(before + 1);
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
    expect(user.messages().length).toBe(before + 1);
  });
});
