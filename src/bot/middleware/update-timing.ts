import type { MiddlewareFn } from "grammy";
import { servedType } from "../allowed-updates";
import type { BotContext } from "../context";

/**
 * Tells `observe` how long each update took, by its type (`other` for one the bot
 * does not serve): from intake to done, its wait for its turn in the journal included.
 */
export function timeUpdates(observe: (type: string, seconds: number) => void): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      observe(servedType(ctx.update) ?? "other", (performance.now() - started) / 1000);
    }
  };
}
