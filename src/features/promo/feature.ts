import { Composer } from "grammy";
import type { BotContext } from "../../bot/context";
import { adminsOnly } from "../../bot/middleware/admins-only";
import type { PromoCode } from "../../platform/db/schema";
import type { Translate } from "../../platform/i18n/i18n";
import { argumentsOf } from "../../platform/lib/command-words";
import type { Metrics } from "../../platform/metrics/metrics";
import {
  maxPromoCredits,
  maxPromoUses,
  parseNewPromo,
  promoCodeInStart,
  promoCodeOf,
  promoStartPrefix,
} from "./rules";
import { createPromoCodes, type PromoDeps, type Redemption } from "./store";

/** Commands of this feature for everyone's menu (each has a `cmd-<name>` description); /promo is an admin command. */
export const promoCommands = ["redeem"] as const;

export type PromoFeatureDeps = PromoDeps & {
  config: { adminIds: readonly number[] };
  /** a redemption's credits counted as granted (msb_credits_total) */
  metrics?: Pick<Metrics, "credits">;
};

type RedeemDeps = Omit<PromoFeatureDeps, "config">;

/**
 * Redeems what the user typed or opened (`code`: undefined when it cannot be a
 * code, then `shown` is what they typed) and says how it went, in their language.
 */
async function redeemAndTell(
  deps: RedeemDeps,
  ctx: BotContext,
  userId: number,
  code: string | undefined,
  shown: string,
  via: "command" | "link",
): Promise<string> {
  const r: Redemption = code ? await createPromoCodes(deps).redeem(code, userId) : { outcome: "unknown" };
  ctx.logger.info({ code: shown, outcome: r.outcome, via }, "promo code redeemed");
  if (r.outcome !== "granted") return ctx.t(`promo-${r.outcome}`, { code: shown });
  deps.metrics?.credits.inc({ movement: "granted" }, r.credits);
  return ctx.t("promo-granted", { code: shown, credits: r.credits, available: r.available });
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** What the user typed, as the answer names it: the code itself, or the word in capitals when it cannot be one. */
const shownCode = (typed: string) => promoCodeOf(typed) ?? typed.toUpperCase().slice(0, 32);

function stateOf(t: Translate, p: PromoCode, now: Date): string {
  if (p.endedAt) return t("promo-state-ended");
  if (p.expiresAt && p.expiresAt <= now) return t("promo-state-expired");
  if (p.expiresAt)
    return t(p.newUsersOnly ? "promo-state-new-only-until" : "promo-state-until", { date: day(p.expiresAt) });
  return t(p.newUsersOnly ? "promo-state-new-only" : "promo-state-running");
}

/** Each code with its redemptions and the credits they gave: /promo list and /stats. */
export function promoLines(t: Translate, codes: readonly PromoCode[], now = new Date()): string[] {
  return codes.map((p) =>
    t("promo-list-line", {
      code: p.code,
      credits: p.credits,
      used: p.used,
      maxUses: p.maxUses,
      given: p.used * p.credits,
      state: stateOf(t, p, now),
    }),
  );
}

/** /redeem CODE for everyone in a private chat; /promo create|list|end for the bot's admins. */
export function promoFeature(deps: PromoFeatureDeps): Composer<BotContext> {
  const codes = createPromoCodes(deps);
  const feature = new Composer<BotContext>();

  feature.chatType("private").command("redeem", async (ctx) => {
    const [typed] = argumentsOf(ctx);
    if (typed === undefined) return void (await ctx.reply(ctx.t("promo-redeem-usage")));
    await ctx.reply(
      await redeemAndTell(deps, ctx, ctx.from.id, promoCodeOf(typed), shownCode(typed), "command"),
    );
  });

  const { outer, admins } = adminsOnly(deps.config.adminIds);
  admins.chatType("private").command("promo", async (ctx) => {
    const [action, ...words] = argumentsOf(ctx);
    switch (action?.toLowerCase()) {
      case "create": {
        const parsed = parseNewPromo(words);
        if (!parsed.ok) {
          const key = parsed.problem === "usage" ? "promo-usage" : `promo-bad-${parsed.problem}`;
          return void (await ctx.reply(ctx.t(key, { maxCredits: maxPromoCredits, maxUses: maxPromoUses })));
        }
        const { code } = parsed.promo;
        if ((await codes.create(parsed.promo, ctx.from.id)) === "taken")
          return void (await ctx.reply(ctx.t("promo-taken", { code })));
        ctx.logger.info({ ...parsed.promo, admin: ctx.from.id }, "promo code created");
        const username = ctx.me.username;
        const link = `https://t.me/${username}?start=${promoStartPrefix}${code}`;
        return void (await ctx.reply(
          ctx.t(username ? "promo-created" : "promo-created-no-link", { code, link }),
          { link_preview_options: { is_disabled: true } },
        ));
      }
      case "end": {
        if (words.length !== 1) return void (await ctx.reply(ctx.t("promo-usage")));
        const code = promoCodeOf(words[0]);
        const ended = code ? await codes.end(code) : false;
        const shown = shownCode(words[0]!);
        if (ended) ctx.logger.info({ code, admin: ctx.from.id }, "promo code ended");
        return void (await ctx.reply(ctx.t(ended ? "promo-ended-now" : "promo-not-found", { code: shown })));
      }
      case "list": {
        const lines = promoLines(ctx.t, await codes.list());
        return void (await ctx.reply(
          lines.length > 0 ? [ctx.t("promo-list-title"), ...lines].join("\n") : ctx.t("promo-list-empty"),
        ));
      }
      default:
        return void (await ctx.reply(ctx.t("promo-usage")));
    }
  });
  feature.use(outer);
  return feature;
}

/**
 * A promo link's /start (`t.me/<bot>?start=promo-<CODE>`): the code redeemed,
 * and what to tell the user; undefined when the payload is no promo code.
 */
export async function claimPromo(
  deps: RedeemDeps,
  ctx: BotContext,
  startPayload: string,
): Promise<string | undefined> {
  const code = promoCodeInStart(startPayload);
  if (!code || !ctx.from || ctx.chat?.type !== "private") return undefined;
  return redeemAndTell(deps, ctx, ctx.from.id, code, code, "link");
}
