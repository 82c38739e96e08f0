import { Composer } from "grammy";
import type { BotContext } from "../context";

/** /start: the user is already registered (middleware); grant the welcome credits once and greet. */
export const startFeature = new Composer<BotContext>();

startFeature.command("start", async (ctx) => {
  if (!ctx.from) return;
  const { users, ledger } = ctx.deps;
  const welcome = await users.welcome(ctx.from.id);
  const { available } = await ledger.account(ctx.from.id);
  const name = ctx.from.first_name;
  await ctx.reply(
    welcome.granted
      ? ctx.t("start-welcome-new", { name, amount: welcome.amount, available })
      : ctx.t("start-welcome-back", { name, available }),
  );
});
