import { Composer } from "grammy";
import type { BotContext } from "../context";

/** Registered last: text in a private chat that nothing else handled. */
export const fallbackFeature = new Composer<BotContext>();

fallbackFeature.chatType("private").on("message:text", (ctx) => ctx.reply(ctx.t("fallback-unknown")));
