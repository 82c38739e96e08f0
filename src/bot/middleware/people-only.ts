import type { MiddlewareFn } from "grammy";
import type { BotContext } from "../context";

/** Telegram's stand-in sender of anonymous group admins' messages. */
export const groupAnonymousBotId = 1087968824;

/**
 * Who a message or press comes from when it is not a person: a bot, an
 * anonymous group admin (GroupAnonymousBot, shared by every such admin of
 * every group) or a channel / group identity (`sender_chat`). None of them can
 * own an account: one account would be shared by everyone behind the identity.
 */
function notAPerson(ctx: BotContext): boolean {
  const from = ctx.from;
  if (from && (from.is_bot || from.id === groupAnonymousBotId)) return true;
  return Boolean(ctx.msg?.sender_chat);
}

/** A message that is meant for the bot: in a private chat, a command, or an answer to the bot. */
function addressedToBot(ctx: BotContext): boolean {
  const m = ctx.message;
  if (!m) return false;
  if (ctx.chat?.type === "private") return true;
  const entities = m.entities ?? m.caption_entities;
  if (entities?.some((e) => e.type === "bot_command" && e.offset === 0)) return true;
  return m.reply_to_message?.from?.id === ctx.me.id;
}

/**
 * Messages and presses from anything but a person get no account, no session,
 * no conversation: they are told (once per message addressed to the bot) to
 * write as themselves, and a press is answered so it stops spinning.
 */
export function peopleOnly(): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    if (!(ctx.message || ctx.editedMessage || ctx.callbackQuery) || !notAPerson(ctx)) return next();
    ctx.logger.info({ fromId: ctx.from?.id, senderChat: ctx.msg?.sender_chat?.id }, "not a person: refused");
    if (ctx.callbackQuery) {
      await ctx.answerCallbackQuery({ text: ctx.t("people-only"), show_alert: true });
      return;
    }
    if (addressedToBot(ctx)) {
      await ctx.reply(ctx.t("people-only"), {
        reply_parameters: { message_id: ctx.message!.message_id, allow_sending_without_reply: true },
      });
    }
  };
}
