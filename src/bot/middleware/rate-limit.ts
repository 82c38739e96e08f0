import type { MiddlewareFn } from "grammy";
import type { BotContext } from "../context";

export interface RateLimitOptions {
  /** updates a user may send per window */
  limit: number;
  windowMs: number;
  /** Redis key prefix; per user a key below it counts updates of the current window */
  keyPrefix: string;
  /** beyond this Redis answer time the update passes (fail open) */
  redisTimeoutMs: number;
}

export const defaultRateLimit = { limit: 20, windowMs: 10_000, redisTimeoutMs: 500 };

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

type Verdict = "pass" | "notify" | "silence";

/**
 * A fixed window per user, counted in Redis so every process shares it. The
 * first update over the limit gets one polite notice; the rest of the window
 * is dropped silently. When Redis is slow or down, updates pass: the limiter
 * protects the bot, it must not become the thing that stops it.
 */
export function rateLimit(options: RateLimitOptions): MiddlewareFn<BotContext> {
  const { limit, windowMs, keyPrefix, redisTimeoutMs } = options;

  async function count(ctx: BotContext, userId: number): Promise<number | undefined> {
    // the window starts at the user's first update, not at a wall-clock boundary
    const key = `${keyPrefix}${userId}`;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), redisTimeoutMs);
    });
    const counting = ctx.deps.redis
      .multi()
      .incr(key)
      .pexpire(key, windowMs, "NX")
      .exec()
      .then((results) => {
        const value = results?.[0]?.[1];
        return typeof value === "number" ? value : undefined;
      });
    try {
      return await Promise.race([counting, timeout]);
    } catch (err) {
      ctx.logger.warn({ err }, "rate limit: redis failed, letting the update pass");
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  async function verdict(ctx: BotContext, userId: number): Promise<Verdict> {
    const n = await count(ctx, userId);
    if (n === undefined || n <= limit) return "pass";
    return n === limit + 1 ? "notify" : "silence";
  }

  return async (ctx, next) => {
    if (exempt(ctx) || !ctx.from) return next();
    // an operator stopping a broadcast or granting credits is never told to wait
    if (ctx.deps.config.adminIds.includes(ctx.from.id)) return next();
    const outcome = await verdict(ctx, ctx.from.id);
    if (outcome === "pass") return next();
    ctx.logger.info({ userId: ctx.from.id, outcome }, "rate limited");
    if (outcome === "silence") {
      // a button press still gets its answer, or its spinner turns until Telegram gives up
      if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
      return;
    }

    // The registration middleware has not run yet: look up the saved language for this one notice.
    const saved = await ctx.deps.users.get(ctx.from.id);
    if (saved) ctx.i18n.useLocale(saved.language);
    const notice = ctx.t("rate-limited");
    if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: notice, show_alert: true });
    else if (ctx.chat) await ctx.reply(notice);
  };
}
