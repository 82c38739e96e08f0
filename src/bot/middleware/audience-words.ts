import type { MiddlewareFn } from "grammy";
import { type Audience, audienceOfChat, keyFor } from "../../platform/i18n/audience";
import type { BotContext } from "../context";

/**
 * Who reads what this update's handlers write: the chat's audience; without a
 * chat, a payment's pre-checkout is the payer's alone, and the rest (inline
 * queries, chosen inline results, presses on inline messages) may be read by a
 * whole group.
 */
export function audienceOfUpdate(ctx: BotContext): Audience {
  if (ctx.chat) return audienceOfChat(ctx.chat);
  return ctx.preCheckoutQuery ? "private" : "group";
}

/**
 * Every text a handler builds with `ctx.t` fits the chat it is for: in a
 * group, a topic or inline mode, a text about one person's account becomes
 * its group twin, or is refused (`i18n/audience.ts`). Installed right after
 * the i18n plugin, so no feature can build a message around it.
 */
export const audienceWords: MiddlewareFn<BotContext> = (ctx, next) => {
  const audience = audienceOfUpdate(ctx);
  if (audience === "group") {
    const t = ctx.t;
    const fitted: typeof ctx.t = (key, variables) => t(keyFor(audience, key), variables);
    ctx.t = fitted;
    ctx.translate = fitted;
  }
  return next();
};
