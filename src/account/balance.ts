import { Composer } from "grammy";
import type { BotContext } from "../bot/context";
import { entryText } from "../credits/entry-text";
import type { Ledger } from "../credits/ledger";
import { recentEntries } from "../credits/recent-entries";
import type { Database } from "../db/client";
import { buyKeyboard } from "../payments";

/** How many ledger entries /balance lists. */
export const balanceEntries = 10;

export function balanceFeature(deps: {
  ledger: Pick<Ledger, "account">;
  db: Database;
}): Composer<BotContext> {
  const balanceFeature = new Composer<BotContext>();

  /** /balance: available and reserved credits, the latest movements, and where to buy more. */
  balanceFeature.command("balance", async (ctx) => {
    if (!ctx.from) return;
    // sent together: one write to Postgres, one wait for both
    const [account, entries] = await Promise.all([
      deps.ledger.account(ctx.from.id),
      recentEntries(deps.db, ctx.from.id, balanceEntries),
    ]);
    const lines = entries.map((e) =>
      ctx.t("credit-line", {
        when: e.at.toISOString().slice(0, 16).replace("T", " "),
        what: entryText((key, vars) => ctx.t(key, vars), e),
      }),
    );
    await ctx.reply(
      [
        ctx.t("balance", { available: account.available, held: account.held }),
        entries.length > 0
          ? [ctx.t("credit-history-title"), ...lines].join("\n")
          : ctx.t("credit-history-empty"),
      ].join("\n\n"),
      { reply_markup: buyKeyboard((key, vars) => ctx.t(key, vars)) },
    );
  });
  return balanceFeature;
}
