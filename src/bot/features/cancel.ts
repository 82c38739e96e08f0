import { Composer } from "grammy";
import type { BotContext } from "../context";

/** Placeholder until conversations exist: with nothing in progress there is nothing to cancel. */
export const cancelFeature = new Composer<BotContext>();

cancelFeature.command("cancel", (ctx) => ctx.reply(ctx.t("cancel-nothing")));
