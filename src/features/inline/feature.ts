import { Composer } from "grammy";
import type { BotContext } from "../../bot/context";
import type { GenerationCreation } from "../../domain/generations/create";
import type { DeliveryRecords } from "../../domain/generations/delivery-records";
import type { GenerationReads } from "../../domain/generations/reads";
import type { UsualDurations } from "../../domain/generations/usual-durations";
import type { Prices } from "../../domain/pricing/prices";
import type { Users } from "../../domain/users/users";
import { inlineConfirmData } from "../../platform/telegram/callback-data";
import type { Preferences } from "../preferences";
import { answerInlineQuery, offerResultPrefix } from "./answer";
import { confirmInlineOffer } from "./confirm";
import type { InlineOffers } from "./offers";

export interface InlineFeatureDeps {
  prices: Prices;
  discountOf(userId: number): Promise<number>;
  preferences: Preferences;
  offers: InlineOffers;
  generations: Pick<GenerationCreation, "create" | "enqueueSubmit"> &
    Pick<GenerationReads, "deliveredWithFiles"> &
    Pick<UsualDurations, "waitOf"> &
    Pick<DeliveryRecords, "setStatusShown">;
  users: Pick<Users, "reachablePrivately">;
  /** INLINE_STORAGE_CHAT_ID: results are uploaded there; unset, to the user's private chat */
  inlineStorageChatId?: number | undefined;
}

/**
 * Inline mode: `@bot <prompt>` answers with an offer and earlier results; a
 * placed offer is recorded (inline feedback), and its Confirm button creates
 * the generation, shown and delivered in the placed message itself.
 */
export function inlineFeature(deps: InlineFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();

  feature.on("inline_query", (ctx) => answerInlineQuery(ctx, deps));

  // only with inline feedback on in @BotFather; without it, Confirm reads the offer from Redis
  feature.on("chosen_inline_result", async (ctx) => {
    const chosen = ctx.chosenInlineResult;
    if (!chosen.inline_message_id || !chosen.result_id.startsWith(offerResultPrefix)) return;
    const offer = await deps.offers.load(chosen.result_id.slice(offerResultPrefix.length));
    if (!offer || offer.userId !== chosen.from.id) return;
    await deps.offers.place(chosen.inline_message_id, offer);
  });

  feature.callbackQuery(inlineConfirmData.pattern, (ctx) => confirmInlineOffer(ctx, deps));

  // the placed message itself (the bot sees messages sent via itself): nothing to answer
  feature.on("message", (ctx, next) => (ctx.msg.via_bot?.id === ctx.me.id ? undefined : next()));

  return feature;
}
