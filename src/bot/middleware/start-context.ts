import type { MiddlewareFn } from "grammy";
import type { Logger } from "../../platform/lib/logger";
import type { BotContext } from "../context";

/** Each update starts with a logger that names it and nothing read yet about its sender. */
export function startContext(logger: Logger): MiddlewareFn<BotContext> {
  return (ctx, next) => {
    ctx.logger = logger.child({ updateId: ctx.update.update_id });
    ctx.user = undefined;
    ctx.knownUser = undefined;
    ctx.storedConversation = undefined;
    return next();
  };
}
