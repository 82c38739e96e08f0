import { InlineKeyboard } from "grammy";
import type { BotContext } from "../../bot/context";
import type { GenerationCreation } from "../../domain/generations/create";
import type { DeliveryRecords } from "../../domain/generations/delivery-records";
import { showStatus } from "../../domain/generations/status";
import type { UsualDurations } from "../../domain/generations/usual-durations";
import type { Users } from "../../domain/users/users";
import { forAudience } from "../../platform/i18n/audience";
import { translateFor } from "../../platform/i18n/i18n";
import { inlineConfirmData } from "../../platform/telegram/callback-data";
import { editInlineText } from "../../platform/telegram/edit-inline";
import { isTelegramFailure, logNotShown } from "../../platform/telegram/telegram-error";
import { type InlineOffer, type InlineOffers, offerIdOf } from "./offers";
import { canShowInline, startLink } from "./private-chat";

export interface InlineConfirmDeps {
  offers: InlineOffers;
  generations: Pick<GenerationCreation, "create" | "enqueueSubmit"> &
    Pick<UsualDurations, "waitOf"> &
    Pick<DeliveryRecords, "setStatusShown">;
  users: Pick<Users, "reachablePrivately">;
  /** INLINE_STORAGE_CHAT_ID: results are uploaded there; unset, to the user's private chat */
  inlineStorageChatId?: number | undefined;
}

/** The request key of a placed offer: a second tap, a replay or another process finds the same generation. */
export const inlineRequestKey = (inlineMessageId: string) => `inline-${inlineMessageId}`;

/** The offer a press confirms: as placed (Postgres), else as answered (Redis, inline feedback off). */
async function offerFor(
  offers: InlineOffers,
  inlineMessageId: string,
  offerId: string,
): Promise<InlineOffer | undefined> {
  const placed = await offers.placed(inlineMessageId);
  if (placed?.offer.offerId === offerId) return placed.offer;
  return offers.load(offerId);
}

const confirmKeyboard = (t: (key: string) => string, offerId: string) =>
  new InlineKeyboard().text(t("btn-confirm"), inlineConfirmData.make(offerId));

/**
 * Confirm on a message placed in inline mode: only its placer may press it
 * (anyone else is told, and nothing changes). Creates the generation once per
 * inline message; its status is then shown in the message itself, where the
 * result will replace it.
 */
export async function confirmInlineOffer(ctx: BotContext, deps: InlineConfirmDeps): Promise<void> {
  const press = ctx.callbackQuery;
  if (!press) return;
  const inlineMessageId = press.inline_message_id;
  const offerId = inlineConfirmData.parse(press.data);
  if (inlineMessageId === undefined || offerId === undefined) {
    await ctx.answerCallbackQuery({ text: ctx.t("cv-expired-button") });
    return;
  }
  const offer = await offerFor(deps.offers, inlineMessageId, offerId);
  if (!offer) {
    await ctx.answerCallbackQuery({ text: ctx.t("inline-offer-expired", { bot: ctx.me.username }) });
    return;
  }
  if (offer.userId !== press.from.id) {
    await ctx.answerCallbackQuery({ text: ctx.t("inline-not-yours") });
    return;
  }
  // an answer too late for Telegram leaves the press valid: the request is made all the same
  await ctx.answerCallbackQuery().catch((err: unknown) => {
    if (!isTelegramFailure(err, "query-expired")) throw err;
  });
  // without inline feedback this press is the first the bot hears of the message
  await deps.offers.place(inlineMessageId, offer);
  // an inline message is read by everyone in the chat it was placed in
  const t = forAudience("group", (key, vars) => translateFor(offer.language, key, vars));
  // the upload to their private chat would be refused after the service was paid: nothing is held
  // (a request already made for this message, by a press before they blocked the bot, is only shown)
  if (
    !(await canShowInline(deps, offer.userId)) &&
    !(await deps.offers.placed(inlineMessageId))?.generationId
  ) {
    const keyboard = new InlineKeyboard()
      .url(t("inline-btn-start"), startLink(ctx.me.username))
      .row()
      .text(t("btn-confirm"), inlineConfirmData.make(offer.offerId));
    await editInlineText(
      ctx.api,
      inlineMessageId,
      t("inline-start-first", { name: press.from.first_name, bot: ctx.me.username }),
      keyboard,
    );
    return;
  }
  const result = await deps.generations.create({
    key: inlineRequestKey(inlineMessageId),
    userId: offer.userId,
    language: offer.language,
    chat: { chatId: null, inlineMessageId },
    params: offer.params,
    expectedPrice: offer.price,
    deferSubmit: true,
  });
  if (result.ok) {
    const g = result.generation;
    await deps.offers.setGeneration(inlineMessageId, g.id);
    await showStatus(ctx.api, deps.generations, g, translateFor).catch((err: unknown) =>
      logNotShown(ctx.logger, err, { generationId: g.id }, "inline status not shown"),
    );
    if (result.created) await deps.generations.enqueueSubmit(g.id);
    return;
  }
  switch (result.reason) {
    case "insufficient": {
      const topUp = `https://t.me/${ctx.me.username}?start=topup`;
      const keyboard = confirmKeyboard(t, offer.offerId).row().url(t("inline-btn-top-up"), topUp);
      const vars = { price: result.price, available: result.available, missing: result.missing };
      await editInlineText(
        ctx.api,
        inlineMessageId,
        t("inline-insufficient", { ...vars, name: press.from.first_name }),
        keyboard,
      );
      return;
    }
    case "price_changed": {
      const repriced = {
        ...offer,
        price: result.price,
        offerId: offerIdOf(offer.userId, offer.params, result.price),
      };
      await deps.offers.save(repriced);
      await deps.offers.reprice(inlineMessageId, repriced);
      await editInlineText(
        ctx.api,
        inlineMessageId,
        t("inline-price-changed", { price: result.price }),
        confirmKeyboard(t, repriced.offerId),
      );
      return;
    }
    case "banned":
      await editInlineText(ctx.api, inlineMessageId, t("banned-notice"));
      return;
    case "refused_prompt":
      await editInlineText(ctx.api, inlineMessageId, t("prompt-refused"));
      return;
    case "invalid":
    case "no_price":
      ctx.logger.warn({ reason: result.reason, inlineMessageId }, "inline offer cannot be created");
      await editInlineText(ctx.api, inlineMessageId, t("inline-unavailable"));
      return;
  }
}
