import { Composer } from "grammy";
import type { BotContext } from "../context";

export const helpFeature = new Composer<BotContext>();

helpFeature.command("help", (ctx) => ctx.reply(ctx.t("help")));
