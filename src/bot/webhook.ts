import { createHash, timingSafeEqual } from "node:crypto";
import { type Bot, webhookCallback } from "grammy";
import { Hono } from "hono";
import { type Logger, scrub } from "../lib/logger";
import type { BotContext } from "./context";

export interface TelegramWebhookOptions {
  /** compared with the X-Telegram-Bot-Api-Secret-Token header */
  secretToken: string;
  /** where the app answers POSTs, e.g. "/telegram" */
  path: string;
  /**
   * Answer Telegram after this long even if the update is still being handled
   * (it goes on in the background): Telegram redelivers slow answers, and the
   * dedupe would only drop the copy.
   */
  timeoutMs?: number;
  /** where failures outside the bot's error boundary are logged (e.g. the database down during dedupe) */
  logger?: Logger;
}

const secretHeader = "X-Telegram-Bot-Api-Secret-Token";

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** Constant time whatever the input: digests have equal lengths, so no early exit on length. */
function sameSecret(given: string | undefined, expected: Buffer): boolean {
  return given !== undefined && timingSafeEqual(digest(given), expected);
}

/** A Hono app receiving Telegram's webhook calls; mount it in the HTTP server. */
export function telegramWebhookApp(bot: Bot<BotContext>, options: TelegramWebhookOptions): Hono {
  const expected = digest(options.secretToken);
  const handle = webhookCallback(bot, "hono", {
    onTimeout: "return",
    timeoutMilliseconds: options.timeoutMs ?? 8_000,
  });

  const app = new Hono();
  // Failures the bot's error boundary did not handle: answer 500, so Telegram
  // delivers the update again later.
  app.onError((err, c) => {
    options.logger?.error({ error: scrub(String(err)) }, "telegram webhook: update failed");
    return c.body(null, 500);
  });
  app.post(options.path, async (c) => {
    if (!sameSecret(c.req.header(secretHeader), expected)) return c.body(null, 401);
    return handle(c);
  });
  return app;
}
