import { describe, expect, test } from "vitest";
import {
  deliverGeneration,
  deliverJob,
  deliverJobHandler,
} from "../../../src/domain/generations/deliver/deliver-step";
import { createMediaStore } from "../../../src/platform/storage/media-store";
import { blockedUserIds } from "../../support/blocked-users";
import { deliverStepRig } from "../../support/deliver-step-rig";

/**
 * The deliver step on real Postgres and the Telegram stand-in: what happens
 * when a send fails (gives up, falls back to the chat, marks the user blocked,
 * reports Telegram's flood control).
 */
describe("the deliver step", () => {
  const rig = deliverStepRig("deliver-step");
  const { deps, completed, startedUser, photosTo } = rig;

  test("a result that failed 12 sends is refunded and the user told; the 13th call sends nothing", async () => {
    const user = await startedUser();
    const { id } = await completed(user);
    rig.files.setOutage(500);
    for (let attempt = 1; attempt <= 12; attempt++) {
      await expect(deliverGeneration(id, deps())).rejects.toThrow();
    }
    expect((await rig.generations.get(id))?.deliveryAttempts).toBe(12);
    rig.files.setOutage(undefined);
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "notified" });
    const g = await rig.generations.get(id);
    expect(g).toMatchObject({ state: "failed", error: { reason: "undeliverable" } });
    expect(await rig.ledger.account(user.id)).toEqual({ userId: user.id, available: 100, held: 0 });
    expect(user.messages().some((m) => m.photo)).toBe(false);
    expect(await rig.ledger.audit()).toEqual([]);
  });

  test("a closed forum topic: the next attempt answers in the chat itself", async () => {
    const user = await startedUser();
    const { id } = await completed(user, 77);
    rig.tg.failNext("sendPhoto", { code: 400, description: "Bad Request: message thread not found" });
    await expect(deliverGeneration(id, deps())).rejects.toThrow(/thread not found/);
    expect((await rig.generations.get(id))?.threadId).toBeNull();
    expect(await deliverGeneration(id, deps())).toMatchObject({ kind: "delivered" });
    const sends = rig.tg.callsOf("sendPhoto").filter((c) => Number(c.params.chat_id) === user.chatId);
    expect(sends.at(-1)?.params.message_thread_id).toBeUndefined();
    expect((await rig.generations.get(id))?.state).toBe("delivered");
  });

  test("a user who blocked the bot is marked blocked; the result is kept, not retried", async () => {
    const user = await startedUser();
    const bystander = await startedUser();
    const { id } = await completed(user);
    const before = await blockedUserIds(rig.database.db);
    expect(before).not.toContain(user.id);
    const d = deps();
    rig.tg.failNext("sendPhoto", { code: 403, description: "Forbidden: bot was blocked by the user" });
    expect(await deliverGeneration(id, d)).toEqual({
      kind: "unreachable",
      reason: "Forbidden: bot was blocked by the user",
    });
    expect(photosTo(user)).toBe(1);

    // marked blocked in Postgres: this user, and nobody else
    expect((await rig.users.get(user.id))?.blockedAt).toBeInstanceOf(Date);
    expect((await rig.users.get(bystander.id))?.blockedAt).toBeNull();
    expect(await blockedUserIds(rig.database.db)).toEqual([...before, user.id].sort((a, b) => a - b));

    // kept: the generation is settled as delivered with nothing shown, its charge stays
    // taken (no refund, no hold released), and our copy of the output is still stored
    const g = await rig.generations.get(id);
    expect(g).toMatchObject({
      state: "delivered",
      deliveryAttempts: 1,
      deliveredMessageIds: [],
      fileIds: [],
      error: null,
    });
    expect(g?.charged).toBeGreaterThan(0);
    expect(await rig.ledger.account(user.id)).toEqual({
      userId: user.id,
      available: 100 - (g?.charged ?? 0),
      held: 0,
    });
    expect(await rig.ledger.audit({ userId: user.id })).toEqual([]);
    const stored = await createMediaStore(rig.root).existing(`${id}/0.png`);
    expect(stored?.size).toBe(rig.png.length);

    // not retried: another run finds nothing to do and sends Telegram nothing more
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
    expect(photosTo(user)).toBe(1);
    expect(await rig.generations.get(id)).toMatchObject({ state: "delivered", deliveryAttempts: 1 });
    expect(await rig.ledger.account(user.id)).toMatchObject({ available: 100 - (g?.charged ?? 0), held: 0 });
  });

  test("Telegram's flood control on a send becomes a flood outcome with its wait", async () => {
    const user = await startedUser();
    const { id } = await completed(user);
    rig.tg.failNext("sendPhoto", {
      code: 429,
      description: "Too Many Requests: retry after 42",
      retryAfter: 42,
    });
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
    rig.tg.failNext("sendPhoto", {
      code: 429,
      description: "Too Many Requests: retry after 42",
      retryAfter: 42,
    });
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
    const key = rig.nextKey();
    await rig.ledger.grant({ userId: user.id, amount: 100, key: `grant-${key}` });
    const r = await rig.generations.create({
      key,
      userId: user.id,
      language: "en",
      chat: { chatId: user.chatId },
      params: { operation: "image", prompt: "a fox", model: "nano-core-2", imageSize: "1:1", numImages: 1 },
    });
    if (!r.ok) throw new Error("not created");
    const id = r.generation.id;
    await rig.generations.startSubmit(id);
    await rig.generations.accept(id, { taskId: `task-${key}` });
    await rig.generations.fail(id, { reason: "task_failed" });
    const before = user.messages().length;
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "notified" });
    expect(user.messages().length).toBe(before + 1);
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
    expect(user.messages().length).toBe(before + 1);
  });
});
