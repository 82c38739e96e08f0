import { eq } from "drizzle-orm";
import { Api } from "grammy";
import { describe, expect, test } from "vitest";
import type { TestUser } from "../../../sandbox/playground/telegram";
import { deliverGeneration } from "../../../src/domain/generations/deliver/deliver-step";
import { generations as generationsTable } from "../../../src/platform/db/schema";
import { translate } from "../../../src/platform/i18n/i18n";
import { languageFromCode } from "../../../src/platform/i18n/language";
import { defaultPolicy } from "../../../src/runtime/settings";
import { blockedUserIds } from "../../support/blocked-users";
import { deliverStepRig } from "../../support/deliver-step-rig";

/**
 * The deliver step's outcomes that deliver-step.test.ts leaves unpinned, written
 * against the mutants Stryker left alive (docs/mutation-report.md): a refusal for
 * good is refunded at once, the status ends as Done, only a block marks the user
 * blocked, only a closed topic forgets the thread, a notice Telegram refuses is
 * given up once.
 */
describe("the deliver step: outcomes by failure", () => {
  const rig = deliverStepRig("deliver-mutants");
  const { deps, completed, startedUser } = rig;

  const t = (key: string, vars?: Record<string, string | number>) =>
    translate(languageFromCode("en"), key, vars);
  const sentTo = (user: TestUser, method: string) =>
    rig.tg.callsOf(method).filter((c) => Number(c.params.chat_id) === user.chatId);

  async function failedGeneration(user: TestUser) {
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
    await rig.generations.startSubmit(r.generation.id);
    await rig.generations.fail(r.generation.id, { reason: "task_failed" });
    return r.generation.id;
  }

  test("a result Telegram refuses for good is refunded at the first attempt and the user told", async () => {
    const user = await startedUser();
    const { id, price } = await completed(user);
    rig.tg.failNext("sendPhoto", { code: 400, description: "Bad Request: PHOTO_INVALID_DIMENSIONS" });
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "notified" });
    const g = await rig.generations.get(id);
    expect(g).toMatchObject({ state: "failed", deliveryAttempts: 1, error: { reason: "undeliverable" } });
    expect(g?.notifiedAt).not.toBeNull();
    expect(await rig.ledger.account(user.id)).toEqual({ userId: user.id, available: 100, held: 0 });
    expect(sentTo(user, "sendMessage").at(-1)?.params.text).toBe(t("gen-undeliverable", { price }));
    expect((await rig.users.get(user.id))?.blockedAt).toBeNull();
  });

  test("a result whose file is gone for good (404) is refunded at the first attempt", async () => {
    const user = await startedUser();
    const { id } = await completed(user);
    rig.files.setOutage(404);
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "notified" });
    expect(await rig.generations.get(id)).toMatchObject({ state: "failed", deliveryAttempts: 1 });
    expect(await rig.ledger.account(user.id)).toEqual({ userId: user.id, available: 100, held: 0 });
  });

  test("a delivered result: the status ends as Done with its cost, and a second run sends nothing", async () => {
    const user = await startedUser();
    const { id, price } = await completed(user);
    const outcome = await deliverGeneration(id, deps());
    expect(outcome).toMatchObject({ kind: "delivered" });
    expect(sentTo(user, "sendPhoto")).toHaveLength(1);
    expect(sentTo(user, "sendMessage").at(-1)?.params.text).toBe(t("gen-done", { cost: price }));
    const g = await rig.generations.get(id);
    expect(g).toMatchObject({ state: "delivered", deliveryAttempts: 1 });
    expect(g?.deliveredMessageIds).toHaveLength(1);
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
    expect(sentTo(user, "sendPhoto")).toHaveLength(1);
  });

  test("a chat that cannot be written to keeps the result and does not mark the user blocked", async () => {
    const user = await startedUser();
    const { id } = await completed(user);
    rig.tg.failNext("sendPhoto", { code: 400, description: "Bad Request: chat not found" });
    expect(await deliverGeneration(id, deps())).toEqual({
      kind: "unreachable",
      reason: "Bad Request: chat not found",
    });
    expect((await rig.users.get(user.id))?.blockedAt).toBeNull();
    expect(await rig.generations.get(id)).toMatchObject({
      state: "delivered",
      charged: expect.any(Number),
      deliveredMessageIds: [],
      fileIds: [],
    });
  });

  test("a passing failure keeps the forum topic and is retried, not refunded", async () => {
    const user = await startedUser();
    const { id } = await completed(user, 77);
    rig.tg.failNext("sendPhoto", { code: 500, description: "Internal Server Error" });
    await expect(deliverGeneration(id, deps())).rejects.toThrow();
    expect(await rig.generations.get(id)).toMatchObject({
      state: "delivering",
      threadId: 77,
      deliveryAttempts: 1,
    });
    const account = await rig.ledger.account(user.id);
    expect(account.available).toBeLessThan(100);
  });

  test("a failure notice to a user who blocked the bot is given up once and marks them blocked", async () => {
    const user = await startedUser();
    const bystander = await startedUser();
    const id = await failedGeneration(user);
    const before = await blockedUserIds(rig.database.db);
    rig.tg.failNext("sendMessage", { code: 403, description: "Forbidden: bot was blocked by the user" });
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "notified" });
    // marked in Postgres: this user, and nobody else
    expect((await rig.users.get(user.id))?.blockedAt).toBeInstanceOf(Date);
    expect((await rig.users.get(bystander.id))?.blockedAt).toBeNull();
    expect(await blockedUserIds(rig.database.db)).toEqual([...before, user.id].sort((a, b) => a - b));
    expect((await rig.generations.get(id))?.notifiedAt).not.toBeNull();
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "nothing-to-do" });
  });

  test("a failure notice Telegram refuses for good is given up without marking anyone blocked", async () => {
    const user = await startedUser();
    const id = await failedGeneration(user);
    const before = await blockedUserIds(rig.database.db);
    rig.tg.failNext("sendMessage", { code: 400, description: "Bad Request: can't parse entities" });
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "notified" });
    expect((await rig.users.get(user.id))?.blockedAt).toBeNull();
    expect(await blockedUserIds(rig.database.db)).toEqual(before);
    expect((await rig.generations.get(id))?.notifiedAt).not.toBeNull();
  });

  test("a failure notice that fails in passing is retried: not marked told", async () => {
    const user = await startedUser();
    const id = await failedGeneration(user);
    rig.tg.failNext("sendMessage", { code: 500, description: "Internal Server Error" });
    await expect(deliverGeneration(id, deps())).rejects.toThrow();
    expect((await rig.generations.get(id))?.notifiedAt).toBeNull();
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "notified" });
    expect(sentTo(user, "sendMessage").at(-1)?.params.text).toBe(
      t("gen-failed", { price: (await rig.generations.get(id))?.price ?? 0 }),
    );
  });

  test("a reply target that is gone for good is refunded at the first attempt", async () => {
    const user = await startedUser();
    const { id } = await completed(user);
    rig.tg.failNext("sendPhoto", { code: 400, description: "Bad Request: message to be replied not found" });
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "notified" });
    expect(await rig.generations.get(id)).toMatchObject({ state: "failed", deliveryAttempts: 1 });
    expect(await rig.ledger.account(user.id)).toEqual({ userId: user.id, available: 100, held: 0 });
  });

  test("a download that fails in passing is thrown as itself, for the retry and the log", async () => {
    const user = await startedUser();
    const { id } = await completed(user);
    rig.files.setOutage(500);
    await expect(deliverGeneration(id, deps())).rejects.toThrow(/output download answered 500/);
  });

  test("a result out of attempts is refunded with the reason given up after N attempts", async () => {
    const user = await startedUser();
    const { id } = await completed(user);
    await rig.database.db
      .update(generationsTable)
      .set({ deliveryAttempts: defaultPolicy.maxDeliveryAttempts })
      .where(eq(generationsTable.id, id));
    expect(await deliverGeneration(id, deps())).toEqual({ kind: "notified" });
    expect(await rig.generations.get(id)).toMatchObject({
      state: "failed",
      error: {
        reason: "undeliverable",
        message: `gave up after ${defaultPolicy.maxDeliveryAttempts} attempts`,
      },
    });
  });

  test("a group that became a supergroup is refunded at the first attempt (the old chat id is dead)", async () => {
    const user = await startedUser();
    const { id } = await completed(user);
    const api = new Api(rig.tg.token, { apiRoot: rig.tg.apiRoot });
    const d = { ...deps(), api };
    // the stand-in's failNext cannot carry migrate_to_chat_id: Telegram's answer is given here
    api.config.use((prev, method, payload, signal) =>
      method === "sendPhoto"
        ? Promise.resolve({
            ok: false as const,
            error_code: 400,
            description: "Bad Request: group chat was upgraded to a supergroup chat",
            parameters: { migrate_to_chat_id: -1001234567890 },
          })
        : prev(method, payload, signal),
    );
    expect(await deliverGeneration(id, d)).toEqual({ kind: "notified" });
    expect(await rig.generations.get(id)).toMatchObject({ state: "failed", deliveryAttempts: 1 });
    expect(await rig.ledger.account(user.id)).toEqual({ userId: user.id, available: 100, held: 0 });
  });

  test("an unknown generation is nothing to do", async () => {
    expect(await deliverGeneration("00000000-0000-0000-0000-000000000000", deps())).toEqual({
      kind: "nothing-to-do",
    });
  });
});
