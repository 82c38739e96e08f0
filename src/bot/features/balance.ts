import { Composer } from "grammy";
import type { BotContext } from "../context";

export const balanceFeature = new Composer<BotContext>();

balanceFeature.command("balance", async (ctx) => {
  if (!ctx.from) return;
  const account = await ctx.deps.ledger.account(ctx.from.id);
  await ctx.reply(ctx.t("balance", { available: account.available, held: account.held }));
});
