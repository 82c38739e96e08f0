import type { MiddlewareFn } from "grammy";
import { languageFromCode } from "../../platform/i18n/language";
import type { BotContext } from "../context";

/** A message the user meant for the bot: anything in a private chat, a command, or a reply to the bot. */
function addressedToBot(ctx: BotContext): boolean {
  const m = ctx.msg;
  if (!m) return false;
  if (ctx.chat?.type === "private") return true;
  const entities = m.entities ?? m.caption_entities;
  if (entities?.some((e) => e.type === "bot_command" && e.offset === 0)) return true;
  return m.reply_to_message?.from?.id === ctx.me.id;
}

/**
 * Stops every update of a user an admin banned, before the conversations (so
 * an open conversation cannot go on) and before anything that spends. Each
 * update gets one polite answer in the user's language: a reply to a message
 * meant for the bot, a toast for a press, an empty inline answer, a refused
 * checkout. Admins are never stopped, and payments and refunds that already
 * happened are never dropped.
 */
export function bannedUsersStop(adminIds: readonly number[]): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const from = ctx.from;
    if (!from || adminIds.includes(from.id)) return next();
    // money that already moved is recorded whoever moved it: a payment made
    // before the ban, or a refund, goes on to its handler
    if (ctx.message?.successful_payment || ctx.message?.refunded_payment) return next();
    // read by the update's claim (the journal)
    const state = ctx.knownUser;
    if (!state || state.bannedAt === null) return next();

    ctx.i18n.useLocale(languageFromCode(state.language));
    const notice = ctx.t("banned-notice");
    ctx.logger.info({ userId: from.id }, "update of a banned user: refused");
    if (ctx.callbackQuery) {
      await ctx.answerCallbackQuery({ text: notice });
    } else if (ctx.inlineQuery) {
      await ctx.answerInlineQuery([], { cache_time: 0, is_personal: true });
    } else if (ctx.preCheckoutQuery) {
      await ctx.answerPreCheckoutQuery(false, { error_message: notice });
    } else if (ctx.message && addressedToBot(ctx)) {
      await ctx.reply(notice, {
        reply_parameters: { message_id: ctx.message.message_id, allow_sending_without_reply: true },
        ...(ctx.message.is_topic_message ? { message_thread_id: ctx.message.message_thread_id } : {}),
      });
    }
  };
}
