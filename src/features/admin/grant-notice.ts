import type { Api } from "grammy";
import type { UserRecord, Users } from "../../domain/users/users";
import { translateFor } from "../../platform/i18n/i18n";
import type { Logger } from "../../platform/lib/logger";
import { classifyTelegramError } from "../../platform/telegram/telegram-error";

/**
 * Tells the user an admin's /grant moved credits: added or taken, and their
 * balance now, in their language. Whatever Telegram answers, the grant stands:
 * true when the message went, false when the user cannot be written to
 * (never started the bot, or blocked it).
 */
export async function tellGrantRecipient(
  deps: {
    api: Pick<Api, "sendMessage">;
    users: Pick<Users, "reachablePrivately" | "markBlocked">;
    logger: Logger;
  },
  user: Pick<UserRecord, "id" | "language">,
  moved: number,
  available: number,
): Promise<boolean> {
  if (moved === 0 || !(await deps.users.reachablePrivately(user.id))) return false;
  const key = moved > 0 ? "grant-notice-added" : "grant-notice-taken";
  const text = translateFor(user.language, key, { credits: Math.abs(moved), available });
  try {
    await deps.api.sendMessage(user.id, text);
    return true;
  } catch (err) {
    // the credits moved already: a notice that did not go is only logged
    const failure = classifyTelegramError(err);
    if (failure?.kind === "blocked") await deps.users.markBlocked(user.id);
    deps.logger.info({ err, userId: user.id, failure: failure?.kind }, "grant notice not sent");
    return false;
  }
}
