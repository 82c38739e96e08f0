import { Composer } from "grammy";
import type { BotContext, BotDeps } from "../../bot/context";
import { referralCodeOf } from "./code";
import { createReferrals } from "./store";

/** Commands of this feature, for the command menu (each has a `cmd-<name>` description). */
export const referralCommands = ["invite"] as const;

/** What invites read: the referral tables, the bonus setting, the referrer's name. */
export type InviteDeps = Pick<BotDeps, "db" | "config" | "users">;

/** /invite: the user's own invite link, how it works and what it has brought so far. */
export function inviteFeature(deps: InviteDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.chatType("private").command("invite", async (ctx) => {
    const referrals = createReferrals(deps.db);
    const code = await referrals.codeOf(ctx.from.id);
    const username = ctx.me.username;
    if (!code || !username) return void (await ctx.reply(ctx.t("referral-unavailable")));
    const bonus = deps.config.referralBonus;
    const stats = await referrals.statsOf(ctx.from.id);
    const link = `https://t.me/${username}?start=${code}`;
    await ctx.reply(
      ctx.t(bonus > 0 ? "referral-invite" : "referral-invite-no-bonus", { link, amount: bonus, ...stats }),
      { link_preview_options: { is_disabled: true } },
    );
  });
  return feature;
}

/**
 * The invite in a /start parameter, recorded when the sender is a newcomer
 * (see `referralVerdict`); the note to show them, if any. Called before the
 * welcome credits, which would make anyone an existing user.
 */
export async function claimInvite(
  deps: InviteDeps,
  ctx: BotContext,
  startParameter: string,
): Promise<string | undefined> {
  const code = referralCodeOf(startParameter);
  if (!code || !ctx.from || ctx.chat?.type !== "private") return undefined;
  const outcome = await createReferrals(deps.db).claim(ctx.from.id, code);
  ctx.logger.info({ verdict: outcome.verdict, referrerId: outcome.referrerId }, "invite link opened");
  switch (outcome.verdict) {
    case "accepted": {
      const bonus = deps.config.referralBonus;
      if (bonus <= 0) return undefined;
      const referrer = outcome.referrerId ? await deps.users.get(outcome.referrerId) : undefined;
      return ctx.t("referral-joined", { name: referrer?.firstName ?? "", amount: bonus });
    }
    case "self":
      return ctx.t("referral-own-link");
    case "existing-user":
    case "already-referred":
      return ctx.t("referral-not-new");
    case "unknown-code":
      return undefined;
  }
}
