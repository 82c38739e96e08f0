import { autoRetry } from "@grammyjs/auto-retry";
import type { Transformer } from "grammy";
import { z } from "zod";
import type { Logger } from "../lib/logger";
import type { Users } from "../users/users";
import { classifyTelegramAnswer } from "./telegram-error";

/**
 * Retries a 429 a few times when its `retry_after` is short. A 5xx and a network
 * error are thrown at once: the plugin's backoff for those doubles from 3 s and
 * waits once more after the last try (45 s for three retries), holding the
 * chat's other updates all that time. The update's error boundary, or the
 * queue's own retry for a delivery, deals with them instead.
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
export function markBlockedUsers(users: Pick<Users, "markBlocked">, logger: Logger): Transformer {
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
