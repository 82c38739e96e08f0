import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestUser } from "../../src/playground/telegram";
import { eventually, type Harness, startHarness } from "../support/harness";
import {
  fleetWebhookSecret,
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
    });
    fleet = await startWebFleet(h, 2);
  }, 60_000);
  afterAll(async () => {
    if (fleet) await stopWebFleet(fleet);
    await h?.stop();
  });

  test("updates of the same chats, alternating between the processes, are handled one at a time and in order", async () => {
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
      const t = await readTrace(h, ids);
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
});
