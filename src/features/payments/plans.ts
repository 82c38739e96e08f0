import { Composer, InlineKeyboard } from "grammy";
import type { BotContext } from "../../bot/context";
import { showPrivately } from "../../bot/private-details";
import type { Plan } from "../../platform/config/plans";
import { negotiateLanguage, type Translate } from "../../platform/i18n/i18n";
import type { Language } from "../../platform/i18n/language";
import { chatMoment } from "../../platform/i18n/moments";
import { messageOf } from "../../platform/lib/message-of";
import { planRenewalData } from "../../platform/telegram/callback-data";
import { isTelegramFailure } from "../../platform/telegram/telegram-error";
import { invoiceLink, planInvoice } from "./invoice";
import type { ActivePlan, PlanSubscriptions } from "./plan-subscriptions";

export interface PlansFeatureDeps {
  plans: readonly Plan[];
  subscriptions: Pick<PlanSubscriptions, "active" | "setRenewal">;
  /** sandbox or playground: subscription invoices say they are test payments */
  sandbox: boolean;
}

/** One plan as /plans and /balance name it: its credits a month and its discount. */
export function planSummary(t: Translate, plan: Plan): string {
  return t("plan-summary", {
    plan: plan.id,
    credits: plan.credits,
    discount: plan.discount,
    stars: plan.stars,
  });
}

/** The running plan in one line: which, and until when it renews or ends. */
export function activePlanLine(t: Translate, language: Language, active: ActivePlan): string {
  const { date } = chatMoment(language, active.until);
  return t(active.renews ? "plan-active-renews" : "plan-active-ends", { plan: active.planId, date });
}

/**
 * /plans: the running plan with its Cancel (or Resume) button, or the plans
 * on sale, each a button opening its subscription invoice (a link: Telegram
 * sells subscriptions by createInvoiceLink only). Asked in a group, it goes
 * to the member's private chat, as /buy does. Cancelling asks Telegram not to
 * renew (editUserStarSubscription); the plan runs to the end of its period.
 */
export function plansFeature(deps: PlansFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();

  async function view(ctx: BotContext, userId: number, t: Translate, language: Language) {
    const active = await deps.subscriptions.active(userId);
    if (active) {
      const text = [activePlanLine(t, language, active), t("plan-active-hint")].join("\n\n");
      const action = active.renews ? "cancel" : "resume";
      const keyboard = new InlineKeyboard().text(t(`plan-${action}-button`), planRenewalData.make(action));
      return [{ text, reply_markup: keyboard }];
    }
    if (deps.plans.length === 0) return [{ text: t("plans-none") }];
    const keyboard = new InlineKeyboard();
    for (const plan of deps.plans) {
      const link = await invoiceLink(ctx.api, planInvoice(plan, userId, t, deps.sandbox));
      keyboard.url(t("plan-subscribe-button", { plan: plan.id, stars: plan.stars }), link).row();
    }
    const lines = [t("plans-title"), ...deps.plans.map((p) => `• ${planSummary(t, p)}`)];
    if (deps.sandbox) lines.push("", t("buy-packs-test"));
    return [{ text: lines.join("\n"), reply_markup: keyboard }];
  }

  async function show(ctx: BotContext) {
    const userId = ctx.from?.id;
    if (userId === undefined) return;
    try {
      await showPrivately(ctx, "plans", (t, language) => view(ctx, userId, t, language));
    } catch (err) {
      // no invoice link (Telegram refused or was away): nothing was charged, /plans may be sent again
      if (!isTelegramFailure(err, "transient", "rejected")) throw err;
      ctx.logger.warn({ reason: messageOf(err) }, "plans: no subscription link");
      await ctx.reply(ctx.t("buy-invoice-failed"));
    }
  }

  feature.command("plans", show);
  feature.command("start", (ctx, next) => (ctx.match === "plans" ? show(ctx) : next()));

  feature.callbackQuery(planRenewalData.pattern, async (ctx) => {
    const action = planRenewalData.parse(ctx.callbackQuery.data);
    const userId = ctx.callbackQuery.from.id;
    const active = action ? await deps.subscriptions.active(userId) : undefined;
    const wanted = action === "resume";
    if (!active || active.renews === wanted) {
      await ctx.answerCallbackQuery({ text: ctx.t(active ? "plan-already" : "plan-none-active") });
      return;
    }
    try {
      await ctx.api.editUserStarSubscription(userId, active.subscriptionChargeId, !wanted);
    } catch (err) {
      if (!isTelegramFailure(err, "transient", "rejected")) throw err;
      ctx.logger.warn({ userId, reason: messageOf(err) }, "plans: renewal not changed");
      await ctx.answerCallbackQuery({ text: ctx.t("plan-change-failed"), show_alert: true });
      return;
    }
    await deps.subscriptions.setRenewal(userId, wanted);
    await ctx.answerCallbackQuery();
    const { date } = chatMoment(negotiateLanguage(ctx), active.until);
    await ctx.reply(ctx.t(wanted ? "plan-resumed" : "plan-cancelled", { plan: active.planId, date }));
  });

  return feature;
}
