import type { Bot } from "grammy";
import type { Update } from "grammy/types";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { faultPoint } from "../platform/lib/fault-point";
import { type Logger, scrub } from "../platform/lib/logger";
import { sameSecret } from "../platform/lib/same-secret";
import { servedType } from "./allowed-updates";
import { cleanUpdate } from "./clean-update";
import type { BotContext } from "./context";
import type { UpdateJournal } from "./update-journal";

export interface TelegramWebhookOptions {
  /** compared with the X-Telegram-Bot-Api-Secret-Token header */
  secretToken: string;
  /** where the app answers POSTs, e.g. "/telegram" */
  path: string;
  /** every update is recorded here (and claimed, when it is its turn) before Telegram gets its 200 */
  journal: Pick<UpdateJournal, "arrive">;
  /**
   * Answer Telegram after this long even if the update is still being handled
   * (it goes on in the background): Telegram redelivers slow answers, and the
   * journal would only drop the copy.
   */
  timeoutMs?: number;
  /** where failures outside the bot's error boundary are logged (e.g. the database down) */
  logger?: Logger;
}

const secretHeader = "X-Telegram-Bot-Api-Secret-Token";
/** Telegram's updates are far smaller; anything bigger is not from Telegram. */
export const maxUpdateBytes = 1024 * 1024;

const updateShape = z.looseObject({ update_id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER) });

function parseUpdate(body: string): Update | undefined {
  try {
    const parsed = updateShape.safeParse(JSON.parse(body));
    return parsed.success ? cleanUpdate(parsed.data as unknown as Update) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A Hono app receiving Telegram's webhook calls; mount it in the HTTP server.
 * The 200 means "recorded": the update is in the journal before the answer, so
 * a crash after it loses nothing (the recovery handles it). When it cannot be
 * recorded, or handling fails outside the bot's error boundary, the answer is
 * 500 and Telegram delivers the update again later.
 */
export function telegramWebhookApp(bot: Bot<BotContext>, options: TelegramWebhookOptions): Hono {
  const expected = options.secretToken;
  const timeoutMs = options.timeoutMs ?? 8_000;
  const { journal, logger } = options;

  const limitStreamed = bodyLimit({ maxSize: maxUpdateBytes, onError: (c) => c.body(null, 413) });
  const app = new Hono();
  app.onError((err, c) => {
    logger?.error({ error: scrub(String(err)) }, "telegram webhook: update failed");
    return c.body(null, 500);
  });
  app.post(
    options.path,
    async (c, next) => {
      if (!sameSecret(c.req.header(secretHeader), expected)) return c.body(null, 401);
      await next();
    },
    async (c, next) => {
      // Telegram says how long its body is: checked from the header, the body is then read
      // by the server's fast path. Only a body of unstated length goes through bodyLimit,
      // which must take the raw request's stream (a full Request object) to count it.
      const declared = c.req.header("content-length");
      if (declared === undefined || c.req.header("transfer-encoding") !== undefined)
        return limitStreamed(c, next);
      return Number(declared) > maxUpdateBytes ? c.body(null, 413) : next();
    },
    async (c) => {
      const update = parseUpdate(await c.req.text());
      if (!update) return c.body(null, 400);
      if (!bot.isInited()) await bot.init();
      // not recorded: nothing would handle it (servedUpdatesOnly logs and drops it)
      if (servedType(update) === undefined) {
        await bot.handleUpdate(update);
        return c.body(null, 200);
      }
      let fresh: boolean;
      try {
        fresh = await journal.arrive(update);
      } catch (err) {
        logger?.error({ error: scrub(String(err)) }, "telegram webhook: could not record the update");
        return c.body(null, 500);
      }
      // handled already, or in hand elsewhere (Telegram gave up waiting for that answer)
      if (!fresh) {
        logger?.info({ updateId: update.update_id }, "repeated update dropped");
        return c.body(null, 200);
      }
      const handling = bot.handleUpdate(update);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutMs);
      });
      try {
        const outcome = await Promise.race([handling.then(() => "handled" as const), timedOut]);
        if (outcome === "timeout") {
          // it goes on in the background; the journal has it either way
          handling.catch((err: unknown) =>
            logger?.warn({ error: scrub(String(err)) }, "telegram webhook: update failed after the answer"),
          );
          // crash tests: a power cut once Telegram has its 200 and the update is still in handling
          setTimeout(() => faultPoint("webhook:answered-while-handling"), 100).unref();
        }
      } finally {
        clearTimeout(timer);
      }
      return c.body(null, 200);
    },
  );
  return app;
}
