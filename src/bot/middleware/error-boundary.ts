import { type BotError, GrammyError, HttpError } from "grammy";
import { negotiateLanguage, translate } from "../../platform/i18n/i18n";
import { type Logger, scrub } from "../../platform/lib/logger";
import { isTelegramFailure } from "../../platform/telegram/telegram-error";
import type { BotContext } from "../context";

function describe(error: unknown): Record<string, unknown> {
  if (error instanceof GrammyError) {
    return { kind: "telegram", method: error.method, code: error.error_code, description: error.description };
  }
  if (error instanceof HttpError) return { kind: "network", message: scrub(error.message) };
  if (error instanceof Error) {
    return { kind: "bug", name: error.name, message: scrub(error.message), stack: scrub(error.stack ?? "") };
  }
  return { kind: "unknown", value: scrub(String(error)) };
}

/** A user who blocked the bot, or a chat the bot cannot write to, cannot be told anything. */
function cannotBeTold(error: unknown): boolean {
  return isTelegramFailure(error, "blocked", "chat-unreachable");
}

/**
 * The error boundary (and `bot.catch`): log what failed with enough context
 * to find it, and tell the user, in their language, only that something went
 * wrong. Details never reach the chat. Telegram out of reach (a lost
 * connection, a 5xx, each already tried again) and a chat that cannot be
 * written to (the bot blocked, no rights) are not our bugs: a warning.
 */
export async function handleBotError(err: BotError<BotContext>, fallback?: Logger): Promise<void> {
  const ctx = err.ctx;
  // an error before the update's logger was made (bot.catch) is logged with the bot's;
  // the update's own logger names the update already
  const logger: Logger | undefined = ctx.logger ?? fallback;
  const named = ctx.logger ? {} : { updateId: ctx.update.update_id };
  const context = {
    ...named,
    updateType: Object.keys(ctx.update).find((k) => k !== "update_id"),
    userId: ctx.from?.id,
    chatId: ctx.chat?.id,
    error: describe(err.error),
  };
  // routine in inline mode (a query per keystroke) and after any delay: Telegram no longer waits for the answer
  if (isTelegramFailure(err.error, "query-expired")) {
    logger?.info(context, "query answered too late");
    return;
  }
  // Telegram away, or a chat the user closed to the bot: neither is a bug of ours
  if (isTelegramFailure(err.error, "transient") || cannotBeTold(err.error))
    logger?.warn(context, "update failed");
  else logger?.error(context, "update failed");

  if (cannotBeTold(err.error)) return;
  // ctx.t exists only once the i18n middleware ran; the error may come from before it.
  const text = translate(negotiateLanguage(ctx), "error-generic");
  try {
    // a press answered before the failure keeps that answer: Telegram refuses a second one
    if (ctx.callbackQuery && !ctx.shown?.answered(ctx.callbackQuery.id))
      await ctx.answerCallbackQuery({ text }).catch(() => undefined);
    // Telegram waits for this answer (10 s) and fails the payment without it: refused, it can be tried again
    if (ctx.preCheckoutQuery) await ctx.answerPreCheckoutQuery(false, { error_message: text });
    if (ctx.chat) await ctx.reply(text);
  } catch (replyError) {
    logger?.warn({ ...named, error: describe(replyError) }, "could not tell the user");
  }
}
