import { Composer } from "grammy";
import type { BotContext } from "../bot/context";
import { type Details, showPrivately } from "../bot/private-details";
import { entryText } from "../credits/entry-text";
import type { Ledger } from "../credits/ledger";
import { recentEntries } from "../credits/recent-entries";
import type { Database } from "../db/client";
import type { Translate } from "../i18n/i18n";
import { buyKeyboard } from "../payments";

/** How many ledger entries /balance lists. */
export const balanceEntries = 10;

export function balanceFeature(deps: {
  ledger: Pick<Ledger, "account">;
  db: Database;
}): Composer<BotContext> {
  const balanceFeature = new Composer<BotContext>();

  /** /balance: available and reserved credits, the latest movements, and where to buy more. */
  async function details(userId: number, t: Translate): Promise<Details[]> {
    // sent together: one write to Postgres, one wait for both
    const [account, entries] = await Promise.all([
      deps.ledger.account(userId),
      recentEntries(deps.db, userId, balanceEntries),
    ]);
    const lines = entries.map((e) =>
      t("credit-line", {
        when: e.at.toISOString().slice(0, 16).replace("T", " "),
        what: entryText(t, e),
      }),
    );
    const text = [
      t("balance", { available: account.available, held: account.held }),
      entries.length > 0 ? [t("credit-history-title"), ...lines].join("\n") : t("credit-history-empty"),
    ].join("\n\n");
    return [{ text, reply_markup: buyKeyboard(t) }];
  }

  // asked in a group, only the member reads it, in their private chat
  const show = (ctx: BotContext) => showPrivately(ctx, "balance", (t) => details(ctx.from?.id ?? 0, t));
  balanceFeature.command("balance", show);
  // the "Open a private chat" link of /balance asked in a group
  balanceFeature.command("start", (ctx, next) =>
    ctx.chat.type === "private" && ctx.match === "balance" ? show(ctx) : next(),
  );
  return balanceFeature;
}
