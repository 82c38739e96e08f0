import type { MiddlewareFn } from "grammy";
import { servedType } from "../allowed-updates";
import type { BotContext } from "../context";

/**
 * Telegram sends only the update types the bot asks for, but an old
 * allowed_updates setting, a forged webhook call or a stand-in may bring
 * others (a channel_post): those are dropped here, before anything reads them.
 */
export function servedUpdatesOnly(): MiddlewareFn<BotContext> {
  return (ctx, next) => {
    if (servedType(ctx.update) !== undefined) return next();
    ctx.logger.info(
      { updateType: Object.keys(ctx.update).find((k) => k !== "update_id") },
      "update of a type the bot does not serve: ignored",
    );
  };
}
