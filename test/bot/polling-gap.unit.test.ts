import { Bot, HttpError } from "grammy";
import { afterEach, describe, expect, test, vi } from "vitest";
import type { BotContext } from "../../src/bot/context";
import { startPolling } from "../../src/bot/polling";
import type { UpdateJournal } from "../../src/bot/update-journal";
import { testBotInfo } from "../support/bot-info";

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Polling through outages of 30 s and 10 minutes on a fake clock: the real
 * runner, its getUpdates refused (no connection) until Telegram is back.
 */
describe("polling after an outage", () => {
  test.each([
    { name: "30 s", outageMs: 30_000 },
    { name: "10 minutes", outageMs: 10 * 60_000 },
  ])(
    "after $name away, the next getUpdates comes within a second of Telegram answering",
    async ({ outageMs }) => {
      vi.useFakeTimers();
      const bot = new Bot<BotContext>("123456:test-token-not-real-aaaaaaaaaaaa", { botInfo: testBotInfo });
      let away = true;
      const asked: number[] = [];
      bot.api.config.use(async (prev, method, payload, signal) => {
        if (method === "deleteWebhook") return { ok: true, result: true } as never;
        if (method !== "getUpdates") return prev(method, payload, signal);
        asked.push(Date.now());
        if (away) throw new HttpError("Network request for 'getUpdates' failed!", new Error("ECONNREFUSED"));
        return { ok: true, result: [] } as never;
      });
      const journal = { record: async () => undefined } as unknown as UpdateJournal;
      const polling = await startPolling(bot, journal, { retryEveryMs: 1_000 });
      try {
        await vi.advanceTimersByTimeAsync(outageMs);
        // tried about once a second all through, not hammered
        expect(asked.length).toBeGreaterThan(outageMs / 1_000 / 2);
        expect(asked.length).toBeLessThanOrEqual(outageMs / 1_000 + 1);
        away = false;
        const backAt = Date.now();
        await vi.advanceTimersByTimeAsync(5_000);
        const next = asked.find((t) => t >= backAt);
        expect(next).toBeDefined();
        expect((next ?? Number.POSITIVE_INFINITY) - backAt).toBeLessThanOrEqual(1_000);
        expect(polling.isRunning()).toBe(true);
      } finally {
        const stopped = polling.stop();
        await vi.advanceTimersByTimeAsync(60_000);
        await stopped;
      }
    },
  );
});
