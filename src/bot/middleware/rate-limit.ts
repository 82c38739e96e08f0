import type { MiddlewareFn } from "grammy";
import type { Redis } from "ioredis";
import type { Users } from "../../domain/users/users";
import { type RateWindowOptions, rateWindow } from "../../platform/lib/rate-window";
import { isGroupChat } from "../../platform/telegram/chat-kind";
import type { BotContext } from "../context";

/** updates one key (a user, a group) may have per window, counted in Redis (rate-window.ts) */
export interface RateLimitOptions extends RateWindowOptions {
  /** what an update is counted under; undefined: not limited here. The sender by default */
  key?: (ctx: BotContext) => string | undefined;
  /** the locale key of the one notice per window (default `rate-limited`) */
  notice?: string;
}

export const defaultRateLimit = { limit: 20, windowMs: 10_000, redisTimeoutMs: 500 };

/** Counts per sender. */
export const perUser = (ctx: BotContext): string | undefined => (ctx.from ? String(ctx.from.id) : undefined);

/** A message that asks the bot for something: a command, or a reply to one of its messages. */
function addressedToBot(ctx: BotContext): boolean {
  const message = ctx.message ?? ctx.editedMessage;
  if (!message) return false;
  const entities = message.entities ?? message.caption_entities ?? [];
  if (entities.some((e) => e.type === "bot_command" && e.offset === 0)) return true;
  return message.reply_to_message?.from?.id === ctx.me.id;
}

/**
 * Counts per group: the requests of one group, whoever sends them, share one
 * window. Only what asks the bot for something counts (commands, replies to
 * it, button presses): with privacy mode off, or the bot an admin, the
 * group's own chatter reaches the bot too and must not use up the window.
 * Each counted update costs a message or an edit in the group, where Telegram
 * allows the bot about 20 a minute: so one member cannot make the bot flood a
 * group, or wear out its budget there.
 */
export const perGroup = (ctx: BotContext): string | undefined => {
  if (!ctx.chat || !isGroupChat(ctx.chat)) return undefined;
  return ctx.callbackQuery || addressedToBot(ctx) ? `group:${ctx.chat.id}` : undefined;
};

/**
 * Updates that are never limited: answers Telegram waits for, payments,
 * membership changes, and inline queries (Telegram sends one per keystroke;
 * what they may cost is decided when a result is chosen).
 */
function exempt(ctx: BotContext): boolean {
  if (ctx.from === undefined || ctx.from.is_bot) return true;
  if (ctx.preCheckoutQuery || ctx.myChatMember || ctx.shippingQuery) return true;
  if (ctx.inlineQuery || ctx.chosenInlineResult) return true;
  const message = ctx.message;
  return Boolean(message?.successful_payment || message?.refunded_payment);
}

/** The counts' Redis, the saved language for the one notice, and the admins (never limited). */
export interface RateLimitDeps {
  redis: Redis;
  users: Pick<Users, "get">;
  adminIds: readonly number[];
}

/**
 * A fixed window per key (the sender by default), counted in Redis so every
 * process shares it. The first update over the limit gets one polite notice;
 * the rest of the window is dropped silently. When Redis is slow or down, updates pass: the limiter
 * protects the bot, it must not become the thing that stops it.
 */
export function rateLimit(deps: RateLimitDeps, options: RateLimitOptions): MiddlewareFn<BotContext> {
  const window = rateWindow(deps.redis, options);
  const keyOf = options.key ?? perUser;
  const notice = options.notice ?? "rate-limited";

  return async (ctx, next) => {
    if (exempt(ctx) || !ctx.from) return next();
    // an operator stopping a broadcast or granting credits is never told to wait
    if (deps.adminIds.includes(ctx.from.id)) return next();
    const counted = keyOf(ctx);
    if (counted === undefined) return next();
    const outcome = await window.verdict(counted, (err) =>
      ctx.logger.warn({ err }, "rate limit: redis failed, letting the update pass"),
    );
    if (outcome === "pass") return next();
    ctx.logger.info({ userId: ctx.from.id, key: counted, outcome }, "rate limited");
    if (outcome === "silence") {
      // a button press still gets its answer, or its spinner turns until Telegram gives up
      if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
      return;
    }

    // The registration middleware has not run yet: look up the saved language for this one notice.
    const saved = await deps.users.get(ctx.from.id);
    if (saved) ctx.i18n.useLocale(saved.language);
    const text = ctx.t(notice);
    if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text, show_alert: true });
    else if (ctx.chat) await ctx.reply(text);
  };
}
