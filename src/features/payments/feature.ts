import { Composer, InlineKeyboard } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import type { BotContext } from "../../bot/context";
import { type DetailStart, showPrivately } from "../../bot/private-details";
import type { Ledger } from "../../domain/credits/ledger";
import type { CreditPack } from "../../platform/config/credit-packs";
import type { Translate } from "../../platform/i18n/i18n";
import { messageOf } from "../../platform/lib/message-of";
import { buyMenuData, buyPackData } from "../../platform/telegram/callback-data";
import { isTelegramFailure } from "../../platform/telegram/telegram-error";
import { packInvoice } from "./invoice";

/** Commands of this feature, for the command menu (each has a `cmd-<name>` description). */
export const paymentCommands = ["buy", "plans", "paysupport", "terms"] as const;

/** `/start topup` (the inline insufficient-credits link, a group's "Open a private chat") opens the packs. */
const topUpStart = "topup" satisfies DetailStart;

export interface BuyFeatureDeps {
  ledger: Pick<Ledger, "account">;
  packs: readonly CreditPack[];
  /** sandbox or playground: invoices and receipts say they are test payments */
  sandbox: boolean;
}

/** The "💳 Buy credits" button, which opens the packs, for wherever a user lacks credits. */
export function buyButton(t: Translate): InlineKeyboardButton.CallbackButton {
  return InlineKeyboard.text(t("buy-button"), buyMenuData.make("packs"));
}

/** A keyboard of just the Buy button. */
export function buyKeyboard(t: Translate): InlineKeyboard {
  return new InlineKeyboard().add(buyButton(t));
}

function packsKeyboard(t: Translate, packs: readonly CreditPack[]): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const pack of packs) {
    keyboard.text(t("buy-pack-button", { ...pack }), buyPackData.make(pack.id)).row();
  }
  return keyboard;
}

/**
 * /buy and the Buy buttons: the packs as buttons, and a pack pressed becomes
 * a Stars invoice (XTR, one price, no provider token) whose payload names the
 * pack, its credits and Stars, and the buyer. /paysupport and /terms, which
 * Telegram requires of bots selling for Stars.
 */
export function buyFeature(deps: BuyFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const t =
    (ctx: BotContext): Translate =>
    (key, vars) =>
      ctx.t(key, vars);

  /** The packs with the balance: asked in a group, they go to the member's private chat (`showPrivately`). */
  async function showPacks(ctx: BotContext) {
    const userId = ctx.from?.id;
    if (userId === undefined) return;
    await showPrivately(ctx, topUpStart, async (t) => {
      const { available } = await deps.ledger.account(userId);
      const text = [t("buy-packs", { available }), ...(deps.sandbox ? [t("buy-packs-test")] : [])];
      return [{ text: text.join("\n\n"), reply_markup: packsKeyboard(t, deps.packs) }];
    });
  }

  feature.command("buy", showPacks);
  feature.command("start", (ctx, next) => (ctx.match === topUpStart ? showPacks(ctx) : next()));
  feature.command("paysupport", (ctx) => ctx.reply(ctx.t("paysupport-text")));
  feature.command("terms", (ctx) => ctx.reply(ctx.t("terms-text")));

  feature.callbackQuery(buyMenuData.pattern, async (ctx) => {
    if (!buyMenuData.parse(ctx.callbackQuery.data) || !ctx.chat) {
      await ctx.answerCallbackQuery({ text: ctx.t("cv-expired-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    await showPacks(ctx);
  });

  feature.callbackQuery(buyPackData.pattern, async (ctx) => {
    const id = buyPackData.parse(ctx.callbackQuery.data);
    const pack = deps.packs.find((p) => p.id === id);
    if (!pack || !ctx.chat) {
      await ctx.answerCallbackQuery({
        text: ctx.t(id === undefined ? "cv-expired-button" : "buy-pack-gone"),
      });
      return;
    }
    await ctx.answerCallbackQuery();
    const invoice = packInvoice(pack, ctx.callbackQuery.from.id, t(ctx), deps.sandbox);
    try {
      await ctx.api.sendInvoice(
        ctx.chat.id,
        invoice.title,
        invoice.description,
        invoice.payload,
        invoice.currency,
        invoice.prices,
        { provider_token: "" },
      );
    } catch (err) {
      // Telegram's refusal (already tried again if it was in passing): nothing was charged, the user may press again
      if (!isTelegramFailure(err, "transient", "rejected")) throw err;
      ctx.logger.warn({ packId: pack.id, reason: messageOf(err) }, "invoice not sent");
      await ctx.reply(ctx.t("buy-invoice-failed"));
    }
  });

  return feature;
}
