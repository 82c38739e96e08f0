import type { ChildProcess } from "node:child_process";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import type { TestUser } from "../../sandbox/playground/telegram";
import { generations, processedUpdates } from "../../src/platform/db/schema";
import { translate } from "../../src/platform/i18n/i18n";
import {
  confirmOffer,
  eventually,
  generationIn,
  type Harness,
  requestImage,
  startedUser,
  startHarness,
} from "../support/harness";

/** After the restart: one generation on the panel, one task, one photo, charged once, nothing left pending. */
async function expectDeliveredOnce(harness: Harness, user: TestUser, panelId: number) {
  const done = await generationIn(harness, user.id, "delivered", 60_000);
  const rows = await harness.db.db.select().from(generations).where(eq(generations.userId, user.id));
  expect(rows).toHaveLength(1);
  expect(rows[0]!.statusMessageId).toBe(panelId);
  expect(harness.sim.tasks().filter((t) => t.metadata?.gid === done.id)).toHaveLength(1);
  expect(user.messages().filter((m) => m.photo)).toHaveLength(1);
  expect(await harness.runtime.ledger.account(user.id)).toEqual({
    userId: user.id,
    available: 100 - done.price,
    held: 0,
  });
  expect(await harness.runtime.ledger.audit()).toEqual([]);
  // nothing is left for a later recovery to handle again
  await eventually(async () =>
    (await harness.db.db.$count(processedUpdates, eq(processedUpdates.state, "pending"))) === 0
      ? true
      : undefined,
  );
}

/**
 * The bot (web role) is a real process, killed with SIGKILL at a fault point
 * while it handles the Confirm press, then started again. The worker role runs
 * in this process. Telegram was told the update arrived (the next getUpdates
 * offset, or a 2xx webhook answer) or retries it; either way the update
 * journal must see it handled to completion: one generation, charged once,
 * delivered.
 */
describe.each([
  { mode: "polling", point: "confirm:before-create" },
  { mode: "polling", point: "confirm:after-create" },
  { mode: "webhook", point: "confirm:before-create" },
] as const)("the bot killed while it handles Confirm ($mode, at $point)", ({ mode, point }) => {
  let h: Harness | undefined;
  let web: ChildProcess | undefined;

  afterEach(async () => {
    web?.kill("SIGKILL");
    web = undefined;
    await h?.stop();
    h = undefined;
  });

  test("after a restart the request exists exactly once and is delivered", { timeout: 90_000 }, async () => {
    h = await startHarness({
      env: {
        ROLE: "worker",
        ...(mode === "webhook"
          ? { BOT_MODE: "webhook", TELEGRAM_WEBHOOK_SECRET: "tg-webhook-secret-crash-0123" }
          : {}),
      },
      timing: { updateLeaseMs: 1_500 },
      telegramRules: { flood: false, webhook: { retryDelayMs: 200, maxRetryDelayMs: 1_000 } },
    });
    const harness = h;
    web = await harness.spawnRuntime({ ROLE: "web", MSB_FAULT_POINT: point });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      web!.once("exit", (_code, signal) => resolve(signal)),
    );
    const user = await startedUser(harness);
    const offer = await requestImage(user, "a lighthouse at dawn");
    expect(await exited).toBe("SIGKILL");
    web = undefined;

    const before = await harness.db.db.select().from(generations).where(eq(generations.userId, user.id));
    expect(before).toHaveLength(point === "confirm:after-create" ? 1 : 0);
    if (point === "confirm:before-create") {
      // "queued" is shown only for a generation that exists: the panel never said it
      const queued = translate("en", "gen-queued");
      const panel = user.messages().find((m) => m.message_id === offer.message_id);
      expect(panel).toBeDefined();
      const shown = [...panel!.history, panel!].map((m) => m.text ?? "");
      expect(shown.some((text) => text.includes(queued))).toBe(false);
    }
    // the press itself reached the journal before Telegram forgot it
    expect(await harness.db.db.$count(processedUpdates, eq(processedUpdates.state, "pending"))).toBe(1);

    web = await harness.spawnRuntime({ ROLE: "web" });
    await expectDeliveredOnce(harness, user, offer.message_id);
  });
});

/**
 * Webhook mode, the case the journal exists for: Telegram got its 200 (the
 * answer does not wait past `webhookAnswerMs`) and will never send the update
 * again, then the process dies while the Confirm is still being handled.
 */
describe("the bot killed after answering a webhook update it was still handling", () => {
  let h: Harness | undefined;
  let web: ChildProcess | undefined;

  afterEach(async () => {
    web?.kill("SIGKILL");
    web = undefined;
    await h?.stop();
    h = undefined;
  });

  test("after a restart the journal handles it: one generation, charged once, delivered", {
    timeout: 90_000,
  }, async () => {
    h = await startHarness({
      env: { ROLE: "worker", BOT_MODE: "webhook", TELEGRAM_WEBHOOK_SECRET: "tg-webhook-secret-crash-0123" },
      timing: { updateLeaseMs: 1_500, webhookAnswerMs: 1_500 },
      telegramRules: { flood: false },
    });
    const harness = h;
    web = await harness.spawnRuntime({ ROLE: "web", MSB_FAULT_POINT: "webhook:answered-while-handling" });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      web!.once("exit", (_code, signal) => resolve(signal)),
    );
    const user = await startedUser(harness);
    await user.send("/image a lighthouse after the answer");
    // the Confirm's handling starts with a chat action: held long past the webhook's answer
    const offer = await user.waitFor((m) =>
      m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅")),
    );
    harness.tg.delayNext("sendChatAction", 6_000);
    await confirmOffer(user);
    expect(await exited).toBe("SIGKILL");
    web = undefined;

    const confirm = harness.tg.deliveries.filter((d) => d.update.callback_query !== undefined);
    expect(confirm.map((d) => d.status)).toEqual([200]);
    expect(await harness.db.db.$count(generations, eq(generations.userId, user.id))).toBe(0);
    expect(await harness.db.db.$count(processedUpdates, eq(processedUpdates.state, "pending"))).toBe(1);

    web = await harness.spawnRuntime({ ROLE: "web" });
    await expectDeliveredOnce(harness, user, offer.message_id);
    // Telegram sent the Confirm once: the generation came from the journal's recovery
    expect(harness.tg.deliveries.filter((d) => d.update.callback_query !== undefined)).toHaveLength(1);
  });
});
