import { setTimeout as delay } from "node:timers/promises";
import { autoRetry } from "@grammyjs/auto-retry";
import { HttpError, type Transformer } from "grammy";
import type { ResponseParameters } from "grammy/types";
import { z } from "zod";
import type { Logger } from "../lib/logger";
import { shorten } from "../lib/shorten";
import { classifyTelegramAnswer } from "./telegram-error";

/**
 * Retries a 429 a few times when its `retry_after` is short. A 5xx and a network
 * error are left to `retryTransient`: the plugin's backoff for those doubles
 * from 3 s without a bound on the tries for a lost connection, and its waits
 * cannot be recorded by a conversation (a replay would wait them again).
 */
export function boundedAutoRetry(): Transformer {
  return autoRetry({
    maxRetryAttempts: 3,
    maxDelaySeconds: 10,
    rethrowInternalServerErrors: true,
    rethrowHttpErrors: true,
  });
}

const privateChatPayload = z.object({ chat_id: z.number().int().positive() });

/**
 * Marks the user blocked when Telegram says they blocked the bot (or deleted
 * their account) in answer to anything sent to their private chat
 * (a private chat's id is the user's id). The answer itself passes through.
 */
/** What marks a user blocked (the users' store, given by the runtime). */
export interface BlockedMarker {
  markBlocked(userId: number): Promise<boolean>;
}

export function markBlockedUsers(users: BlockedMarker, logger: Logger): Transformer {
  return async (prev, method, payload, signal) => {
    const result = await prev(method, payload, signal);
    if (!result.ok && classifyTelegramAnswer(result).kind === "blocked") {
      const target = privateChatPayload.safeParse(payload);
      if (target.success) {
        const userId = target.data.chat_id;
        try {
          if (await users.markBlocked(userId)) logger.info({ userId, method }, "user blocked the bot");
        } catch (err) {
          logger.warn({ err, userId }, "could not mark the user blocked");
        }
      }
    }
    return result;
  };
}

/** The words of an answer, whatever its shape: a description, a message, or the body itself. */
function wordsOf(answer: Record<string, unknown>): string {
  for (const key of ["description", "message", "error", "detail"]) {
    const value = answer[key];
    if (typeof value === "string" && value.trim() !== "") return shorten(value, 300);
  }
  return shorten(JSON.stringify(answer), 300);
}

/**
 * Gives every failed answer the Bot API's shape. A server that is not
 * Telegram's (a proxy, another Bot API implementation) may answer a failure
 * with `{"message": …}` alone: grammY then reports "(undefined: undefined)"
 * and the server's words are lost. Such an answer keeps its words as the
 * description; without a code of its own it counts as a server failure (500:
 * grammY does not keep the HTTP status), tried again like one, then given up.
 * A refusal in Telegram's shape (a 4xx) passes unchanged.
 */
export function readableRefusals(): Transformer {
  return async (prev, method, payload, signal) => {
    const answer = await prev(method, payload, signal);
    if (answer.ok === true) return answer;
    const raw = (answer ?? {}) as unknown as Record<string, unknown>;
    if (typeof raw.error_code === "number" && typeof raw.description === "string") return answer;
    return {
      ok: false,
      error_code: typeof raw.error_code === "number" ? raw.error_code : 500,
      description: wordsOf(raw),
      ...(raw.parameters && typeof raw.parameters === "object"
        ? { parameters: raw.parameters as ResponseParameters }
        : {}),
    };
  };
}

/** How a Bot API call that failed in passing (a lost connection, a 5xx) is tried again. */
export interface TransientRetry {
  /** tries of one call in all */
  attempts: number;
  /** real ms before the second try; each next pause doubles, up to `maxDelayMs` */
  firstDelayMs: number;
  maxDelayMs: number;
}

/** About 12 s of pauses at most: a blip is ridden out, an outage gives the update up soon enough. */
export const defaultTransientRetry: TransientRetry = { attempts: 6, firstDelayMs: 250, maxDelayMs: 4_000 };

/**
 * Calls tried once: what they show is cosmetic (a chat action, a menu), so a
 * failure changes nothing the user needs, and retrying would only hold the
 * update (or the start-up) back. getUpdates is retried by the runner, and
 * getMe by the start-up (a line and a readiness note per try).
 */
const triedOnce = new Set([
  "getUpdates",
  "getMe",
  "sendChatAction",
  "setMyCommands",
  "deleteMyCommands",
  "setChatMenuButton",
  "setMyName",
  "setMyDescription",
  "setMyShortDescription",
]);

/** Waits `ms` before the next try of `method`; `reason` is why the last one failed. */
export type RetryPause = (
  ms: number,
  info: { method: string; attempt: number; reason: string },
) => Promise<void>;

/** The pause of the bot's and the workers' clients: logged, then waited in real time. */
export function loggedPause(logger: Pick<Logger, "info">): RetryPause {
  return async (ms, info) => {
    logger.info({ ...info, retryInMs: ms }, "Telegram call failed in passing: trying again");
    await delay(ms);
  };
}

/**
 * Tries a call again, with a doubling pause, when it failed in passing: the
 * connection failed (grammY's HttpError) or the server answered 5xx. A 4xx
 * (and a 429: the auto-retry's) is returned at once; the last failure is
 * returned or thrown as it came. A conversation passes a pause it records,
 * so a replay reads the recorded tries and does not wait again.
 */
export function retryTransient(policy: TransientRetry, pause: RetryPause): Transformer {
  return async (prev, method, payload, signal) => {
    if (triedOnce.has(method)) return prev(method, payload, signal);
    let wait = policy.firstDelayMs;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= policy.attempts;
      let reason: string;
      try {
        const answer = await prev(method, payload, signal);
        if (answer.ok || answer.error_code < 500 || last) return answer;
        reason = `${answer.error_code}: ${answer.description}`;
      } catch (err) {
        if (!(err instanceof HttpError) || last || signal?.aborted) throw err;
        reason = err.message;
      }
      await pause(wait, { method, attempt, reason });
      wait = Math.min(wait * 2, policy.maxDelayMs);
    }
  };
}

const removesButtons = z.object({
  reply_markup: z.object({ inline_keyboard: z.array(z.array(z.unknown()).max(0)) }).optional(),
});

/**
 * Buttons taken off a message: a failure changes nothing the user needs. (Chat
 * actions, the menus and the menu button are caught where they are made, each
 * failure logged there in Telegram's words.)
 */
function isCosmetic(method: string, payload: unknown): boolean {
  if (method !== "editMessageReplyMarkup") return false;
  const p = removesButtons.safeParse(payload ?? {});
  return p.success && (p.data.reply_markup?.inline_keyboard.every((row) => row.length === 0) ?? true);
}

/**
 * Outermost: taking buttons off never fails the update that made it, whatever
 * its error (Telegram away included); it answers as done, and the refusal is
 * logged in Telegram's words.
 */
export function cosmeticNeverFails(logger: Pick<Logger, "info">): Transformer {
  return async (prev, method, payload, signal) => {
    if (!isCosmetic(method, payload)) return prev(method, payload, signal);
    let reason: string;
    try {
      const answer = await prev(method, payload, signal);
      if (answer.ok) return answer;
      reason = `${answer.error_code}: ${answer.description}`;
    } catch (err) {
      if (signal?.aborted) throw err;
      reason = err instanceof Error ? err.message : String(err);
    }
    logger.info({ method, reason }, "cosmetic call failed: the update goes on");
    return { ok: true, result: true as never };
  };
}
