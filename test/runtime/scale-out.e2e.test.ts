import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestUser } from "../../sandbox/playground/telegram";
import { translate } from "../../src/platform/i18n/i18n";
import { eventually, type Harness, startHarness } from "../support/harness";
import {
  fleetWebhookSecret,
  postUpdate,
  postUpdates,
  readTrace,
  startWebFleet,
  stopWebFleet,
  textUpdate,
  type WebProcess,
} from "../support/web-fleet";

/**
 * Two web processes in webhook mode behind one address (a round-robin proxy),
 * one Postgres, one Redis: one chat's updates never run at once or out of order.
 */
describe("scale-out: two web processes", () => {
  let h: Harness;
  let fleet: WebProcess[];
  beforeAll(async () => {
    h = await startHarness({
      noRuntime: true,
      clockFactor: 1,
      env: { BOT_MODE: "webhook", TELEGRAM_WEBHOOK_SECRET: fleetWebhookSecret },
      // an update still in handling is answered (recorded) after this
      timing: { webhookAnswerMs: 200 },
    });
    fleet = await startWebFleet(h, 2);
  }, 60_000);
  afterAll(async () => {
    if (fleet) await stopWebFleet(fleet);
    await h?.stop();
  });

  test("updates of the same chats, alternating between the processes, are handled one at a time and in order (by the journal's trace)", async () => {
    const people: TestUser[] = Array.from({ length: 10 }, () => h.tg.user({ started: true, language: "en" }));
    const texts = ["/start", ...Array.from({ length: 14 }, (_, i) => ["/balance", "/help", "hello"][i % 3]!)];
    // in update_id order: each person's messages interleaved with everyone else's
    const updates = texts.flatMap((text, round) =>
      people.flatMap((p) =>
        round === 0 || p.id % 2 === round % 2 ? [textUpdate(p.info, text)] : [textUpdate(p.info, "/balance")],
      ),
    );
    const statuses = await postUpdates(fleet, updates, 16);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const ids = updates.map((u) => u.update_id);
    const trace = await eventually(async () => {
      const t = await readTrace(h, updates);
      return t.handled === ids.length ? t : undefined;
    }, 60_000);
    expect(trace).toMatchObject({ handled: ids.length, processes: 2, concurrent: 0, outOfOrder: 0 });
    // each update answered once: the welcome once, one answer per later message
    for (const p of people) {
      const mine = updates.filter((u) => u.message?.from?.id === p.id).length;
      await eventually(async () => (p.messages().length >= mine ? true : undefined), 20_000);
      expect(p.messages().filter((m) => m.text?.includes("Available")).length).toBe(
        updates.filter((u) => u.message?.from?.id === p.id && u.message.text === "/balance").length,
      );
    }
  }, 120_000);

  test("one chat's replies reach Telegram one at a time and in order, whichever process took each update (what Telegram saw)", async () => {
    const people: TestUser[] = Array.from({ length: 6 }, () => h.tg.user({ started: true, language: "en" }));
    const kinds = [
      "/start",
      "/help",
      "/balance",
      "hello",
      "/balance",
      "/help",
      "hello",
      "/help",
      "/balance",
      "hello",
    ];
    // Telegram holds every reply: a handler stays at its first send, and the webhook answers
    // (recorded) without waiting for it, so each person's later updates arrive meanwhile
    const gate = h.tg.hold("sendMessage");
    try {
      let posted = 0;
      const statuses = await Promise.all(
        people.map(async (p) => {
          const answered: number[] = [];
          for (const text of kinds) {
            answered.push(await postUpdate(fleet[posted++ % fleet.length]!, textUpdate(p.info, text)));
          }
          return answered;
        }),
      );
      expect(statuses.flat().every((s) => s === 200)).toBe(true);
      // every update is in: each person has one reply at Telegram, the others wait their turn in the bot
      await eventually(async () => (gate.held() >= people.length ? true : undefined));
      expect(gate.held()).toBe(people.length);
    } finally {
      gate.release();
    }
    const replyKind = (text: string | undefined) => {
      // text without a command is offered a picture or a video of it
      if (text?.startsWith(translate("en", "sent-text-offer"))) return "hello";
      if (text?.startsWith(translate("en", "help"))) return "/help";
      if (text?.includes("Available")) return "/balance";
      if (text?.includes("Welcome")) return "/start";
      return `? ${text}`;
    };
    for (const p of people) {
      await eventually(async () => (p.messages().length >= kinds.length ? true : undefined), 30_000);
      expect(p.messages().map((m) => replyKind(m.text))).toEqual(kinds);
    }
  }, 120_000);
});
