import { Composer, InlineKeyboard } from "grammy";
import type { BotContext } from "../../bot/context";
import { showPrivately } from "../../bot/private-details";
import type { Translate } from "../../platform/i18n/i18n";
import { privacyData } from "../../platform/telegram/callback-data";
import type { Erasure } from "./erase";

export interface PrivacyFeatureDeps {
  erasure: Pick<Erasure, "erase">;
  config: { privacyPolicy: string | undefined; mediaRetentionDays: number };
}

/** The policy as /privacy shows it: the operator's (PRIVACY_POLICY), or the bot's own words. */
export function privacyPolicyText(t: Translate, config: PrivacyFeatureDeps["config"]): string {
  return config.privacyPolicy ?? t("privacy-policy-default", { days: config.mediaRetentionDays });
}

/** "Yes, delete everything" or "Keep my data": the question asked once more. */
const askAgain = (ctx: BotContext) =>
  new InlineKeyboard()
    .text(ctx.t("privacy-delete-confirm"), privacyData.make("erase"))
    .row()
    .text(ctx.t("privacy-delete-keep"), privacyData.make("keep"));

/**
 * /privacy: the policy and "Delete my data", which asks once more before
 * erasing (erase.ts says what goes and what stays). Asked in a group, it goes
 * to the member's private chat, as /balance does.
 */
export function privacyFeature(deps: PrivacyFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();

  const show = (ctx: BotContext) =>
    showPrivately(ctx, "privacy", async (t) => [
      {
        text: [privacyPolicyText(t, deps.config), t("privacy-delete-hint")].join("\n\n"),
        reply_markup: new InlineKeyboard().text(t("privacy-delete-button"), privacyData.make("ask")),
      },
    ]);
  feature.command("privacy", show);
  feature.command("start", (ctx, next) => (ctx.match === "privacy" ? show(ctx) : next()));

  feature.callbackQuery(privacyData.pattern, async (ctx) => {
    const action = privacyData.parse(ctx.callbackQuery.data);
    await ctx.answerCallbackQuery();
    if (action === "ask") {
      await ctx.reply(ctx.t("privacy-delete-ask"), { reply_markup: askAgain(ctx) });
      return;
    }
    // the question's buttons go: it is answered, either way
    await ctx.editMessageReplyMarkup().catch(() => undefined);
    if (action === "keep") {
      await ctx.reply(ctx.t("privacy-delete-kept"));
      return;
    }
    if (action !== "erase") return;
    const userId = ctx.callbackQuery.from.id;
    const erased = await deps.erasure.erase(userId);
    if (erased === "busy") {
      // a result was still on its way: nothing was erased; the same question, to answer again
      await ctx.reply(ctx.t("privacy-delete-failed"), { reply_markup: askAgain(ctx) });
      return;
    }
    ctx.logger.info({ userId, ...erased }, "a user's data erased at their request");
    await ctx.reply(ctx.t("privacy-deleted", { ...erased }));
  });

  return feature;
}
