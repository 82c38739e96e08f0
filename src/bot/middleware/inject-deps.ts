import type { MiddlewareFn } from "grammy";
import type { BotContext, BotDeps } from "../context";

/** Puts the services on the context, with a logger that names the update. */
export function injectDeps(deps: BotDeps): MiddlewareFn<BotContext> {
  return (ctx, next) => {
    ctx.deps = deps;
    ctx.logger = deps.logger.child({ updateId: ctx.update.update_id });
    ctx.user = undefined;
    ctx.knownUser = undefined;
    ctx.storedConversation = undefined;
    return next();
  };
}
