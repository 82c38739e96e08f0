import type { Composer } from "grammy";
import type { BotContext } from "../../bot/context";
import { type BanDeps as BanUserDeps, banUser } from "../../domain/users/ban-user";
import { userLabel } from "../../domain/users/user-label";
import type { Users } from "../../domain/users/users";
import { argumentsOf } from "../../platform/lib/command-words";
import { explainTarget, findTarget, type TargetLookup } from "./target";

export interface BanDeps {
  users: Pick<Users, "get" | "findByUsername" | "findByName" | "ban" | "unban">;
  generations: BanUserDeps["generations"];
  adminIds: readonly number[];
}

async function explainMissing(ctx: BotContext, found: Exclude<TargetLookup, { ok: true }>, usage: string) {
  await ctx.reply(explainTarget(ctx.t, found, usage));
}

/**
 * /ban and /unban. A ban stops the user's updates (middleware/banned.ts) and
 * refuses new generations (generations.create); here, what they still had
 * queued is cancelled and released, and its status message says so.
 */
export function registerBan(admins: Composer<BotContext>, deps: BanDeps): void {
  const privately = admins.chatType("private");

  privately.command("ban", async (ctx) => {
    const found = await findTarget(deps.users, argumentsOf(ctx)[0], ctx.msg.reply_to_message);
    if (!found.ok) return explainMissing(ctx, found, "ban-usage");
    const user = found.user;
    if (deps.adminIds.includes(user.id)) {
      await ctx.reply(ctx.t("ban-admin", { user: userLabel(user) }));
      return;
    }
    // also after a repeated /ban: whatever a race let through is cancelled now
    const { changed: banned, cancelled } = await banUser(deps, ctx.api, user.id);
    const released = cancelled.reduce((sum, g) => sum + g.price, 0);
    ctx.logger.info(
      { adminId: ctx.from.id, userId: user.id, cancelled: cancelled.length, released, changed: banned },
      "user banned",
    );
    const head = banned
      ? ctx.t("ban-done", { user: userLabel(user) })
      : ctx.t("ban-already", { user: userLabel(user) });
    const tail =
      cancelled.length > 0
        ? `\n${ctx.t("ban-cancelled", { count: cancelled.length, credits: released })}`
        : "";
    await ctx.reply(`${head}${tail}`);
  });

  privately.command("unban", async (ctx) => {
    const found = await findTarget(deps.users, argumentsOf(ctx)[0], ctx.msg.reply_to_message);
    if (!found.ok) return explainMissing(ctx, found, "unban-usage");
    const lifted = await deps.users.unban(found.user.id);
    if (lifted) ctx.logger.info({ adminId: ctx.from.id, userId: found.user.id }, "user unbanned");
    await ctx.reply(
      lifted
        ? ctx.t("unban-done", { user: userLabel(found.user) })
        : ctx.t("unban-not-banned", { user: userLabel(found.user) }),
    );
  });
}
