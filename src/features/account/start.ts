import { Composer } from "grammy";
import type { BotContext, BotDeps } from "../../bot/context";
import { isDetailStart } from "../../bot/private-details";
import type { Ledger } from "../../domain/credits/ledger";
import type { Metrics } from "../../platform/metrics/metrics";
import { claimPromo } from "../promo";
import { claimInvite } from "../referrals";

/**
 * /start: the user is already registered (middleware); an invite link's code
 * is recorded first, then the welcome credits are granted once, and a greeting;
 * a promo link's code is redeemed after it.
 */
export function startFeature(
  deps: Pick<BotDeps, "users" | "db" | "config"> & {
    ledger: Pick<Ledger, "account" | "grant" | "moved">;
    metrics?: Pick<Metrics, "credits">;
  },
): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command("start", async (ctx, next) => {
    if (!ctx.from) return;
    const { users, ledger } = deps;
    // an invite link opens a private chat; a group reads no one's invite
    const invite = ctx.chat.type === "private" ? await claimInvite(deps, ctx, ctx.match) : undefined;
    const welcome = await users.welcome(ctx.from.id);
    const { available } = await ledger.account(ctx.from.id);
    const name = ctx.from.first_name;
    await ctx.reply(
      welcome.granted
        ? ctx.t("start-welcome-new", { name, amount: welcome.amount, available })
        : ctx.t("start-welcome-back", { name, available }),
    );
    if (invite) await ctx.reply(invite);
    const promo = ctx.chat.type === "private" ? await claimPromo(deps, ctx, ctx.match) : undefined;
    if (promo) await ctx.reply(promo);
    // `/start topup|balance|history` (a Buy link, a group's "Open a private chat"): the details follow the greeting
    if (isDetailStart(ctx.match)) await next();
  });
  return feature;
}
