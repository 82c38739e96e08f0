import { Composer } from "grammy";
import type { BotContext } from "../../bot/context";
import { type Details, showPrivately } from "../../bot/private-details";
import type { Ledger } from "../../domain/credits/ledger";
import { recentEntries } from "../../domain/credits/recent-entries";
import { entryText } from "../../domain/generations/credit-entry-text";
import type { Database } from "../../platform/db/client";
import type { Translate } from "../../platform/i18n/i18n";
import type { Language } from "../../platform/i18n/language";
import { chatMoment } from "../../platform/i18n/moments";
import { activePlanLine, buyKeyboard, type PlanSubscriptions } from "../payments";

/** How many ledger entries /balance lists. */
export const balanceEntries = 10;

export function balanceFeature(deps: {
  ledger: Pick<Ledger, "account">;
  db: Database;
  subscriptions: Pick<PlanSubscriptions, "active">;
}): Composer<BotContext> {
  const balanceFeature = new Composer<BotContext>();

  /** /balance: available and reserved credits, the latest movements, and where to buy more. */
  async function details(userId: number, t: Translate, language: Language): Promise<Details[]> {
    // sent together: one write to Postgres, one wait for both
    const [account, entries, plan] = await Promise.all([
      deps.ledger.account(userId),
      recentEntries(deps.db, userId, balanceEntries),
      deps.subscriptions.active(userId),
    ]);
    const lines = entries.map((e) =>
      t("credit-line", {
        ...chatMoment(language, e.at),
        what: entryText(t, e),
      }),
    );
    const text = [
      t("balance", { available: account.available, held: account.held }),
      ...(plan ? [activePlanLine(t, language, plan)] : []),
      entries.length > 0 ? [t("credit-history-title"), ...lines].join("\n") : t("credit-history-empty"),
    ].join("\n\n");
    return [{ text, reply_markup: buyKeyboard(t) }];
  }

  // asked in a group, only the member reads it, in their private chat
  const show = (ctx: BotContext) =>
    showPrivately(ctx, "balance", (t, language) => details(ctx.from?.id ?? 0, t, language));
  balanceFeature.command("balance", show);
  // the "Open a private chat" link of /balance asked in a group
  balanceFeature.command("start", (ctx, next) =>
    ctx.chat.type === "private" && ctx.match === "balance" ? show(ctx) : next(),
  );
  return balanceFeature;
}
