import { Composer } from "grammy";
import type { BotContext } from "../bot/context";
import type { Ledger } from "../credits/ledger";
import { type EntryRequest, recentEntries } from "../credits/recent-entries";
import type { Database } from "../db/client";
import { describeParams, generationParams } from "../generations/params";
import type { Translate } from "../i18n/i18n";
import { shorten } from "../lib/shorten";
import { buyKeyboard } from "../payments";

/** How much of a request's words a movement shows. */
const requestWords = 32;

/** Which request a movement was for, as /balance names it: its kind and its words (a prompt, or a dub's languages). */
function requestName(t: Translate, request: EntryRequest | undefined): string {
  const params = request ? generationParams.safeParse(request.params) : undefined;
  if (!request || !params?.success) return t("credit-request-unknown");
  return t("credit-request", {
    operation: t(`op-${params.data.operation}`),
    words: shorten(describeParams(params.data, t), requestWords),
  });
}

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
    const account = await deps.ledger.account(ctx.from.id);
    const entries = await recentEntries(deps.db, ctx.from.id, balanceEntries);
    const lines = entries.map((e) =>
      ctx.t("credit-line", {
        when: e.at.toISOString().slice(0, 16).replace("T", " "),
        what: ctx.t(`credit-entry-${e.label}`, {
          amount: e.amount,
          back: e.back,
          request: requestName((key, vars) => ctx.t(key, vars), e.request),
        }),
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
