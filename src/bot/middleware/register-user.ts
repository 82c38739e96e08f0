import type { MiddlewareFn } from "grammy";
import type { Users } from "../../domain/users/users";
import type { BotContext } from "../context";

/**
 * Records the sender (and chat) on every update and switches translations to
 * the user's saved language. Bots (e.g. anonymous group admins) are not users.
 */
export function registerUser(users: Pick<Users, "touch">): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const from = ctx.from;
    if (from && !from.is_bot) {
      ctx.user = await users.touch(from, ctx.chat, ctx.knownUser);
      await ctx.i18n.renegotiateLocale();
    }
    return next();
  };
}
