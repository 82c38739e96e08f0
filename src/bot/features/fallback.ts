import { Composer } from "grammy";
import type { BotContext } from "../context";

/** Registered last: text in a private chat that nothing else handled. */
export const fallbackFeature = new Composer<BotContext>();

fallbackFeature.chatType("private").on("message:text", (ctx) => ctx.reply(ctx.t("fallback-unknown")));

// A press on a button nothing else knows (an old message, a feature since removed): answered, so it stops spinning.
fallbackFeature.on("callback_query", (ctx) => ctx.answerCallbackQuery());
