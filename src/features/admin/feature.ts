import type { Composer } from "grammy";
import type { BotContext } from "../../bot/context";
import { adminsOnly } from "../../bot/middleware/admins-only";
import type { Ledger } from "../../domain/credits/ledger";
import type { DeliveryRecords } from "../../domain/generations/delivery-records";
import type { GenerationTransitions } from "../../domain/generations/transitions";
import type { BelowCost } from "../../domain/pricing/cost-check";
import type { Users } from "../../domain/users/users";
import type { Database } from "../../platform/db/client";
import { argumentsOf } from "../../platform/lib/command-words";
import { messageOf } from "../../platform/lib/message-of";
import { refusalCounts } from "../moderation";
import type { PaymentStore } from "../payments";
import { newestPromoCodes } from "../promo";
import { registerBan } from "./ban";
import { registerGrant } from "./grant";
import { grantStore } from "./grant-store";
import { registerRefund } from "./refund";
import { collectStats, formatStats } from "./stats";
import { explainTarget, findTarget } from "./target";
import { collectUserReport, formatUserReport } from "./user-report";

/** How many promo codes /stats lists, the newest first (/promo list has more). */
const promoCodesInStats = 10;

export interface AdminFeatureDeps {
  db: Database;
  ledger: Pick<Ledger, "account" | "grant" | "takeUpTo">;
  users: Pick<
    Users,
    "get" | "findByUsername" | "findByName" | "ban" | "unban" | "reachablePrivately" | "markBlocked"
  >;
  generations: Pick<GenerationTransitions, "cancelQueuedOf"> & Pick<DeliveryRecords, "setStatusShown">;
  payments: Pick<PaymentStore, "byCharge" | "refund">;
  adminIds: readonly number[];
  /** prices below the service's cost, named in /stats */
  belowCost: readonly BelowCost[];
}

/** Admin commands in private chats (/stats, /user, /grant, /refund, /ban, /unban), for `adminIds` only. */
export function adminFeature(deps: AdminFeatureDeps): Composer<BotContext> {
  const { outer, admins } = adminsOnly(deps.adminIds);
  const privately = admins.chatType("private");

  privately.command("stats", async (ctx) => {
    // cosmetic: the figures are what the admin asked for
    await ctx
      .replyWithChatAction("typing")
      .catch((err: unknown) => ctx.logger.warn({ reason: messageOf(err) }, "could not show typing"));
    const [stats, promoCodes, refused] = await Promise.all([
      collectStats(deps.db),
      newestPromoCodes(deps.db, promoCodesInStats),
      refusalCounts(deps.db),
    ]);
    await ctx.reply(formatStats(ctx.t, stats, deps.belowCost, promoCodes, refused));
  });

  privately.command("user", async (ctx) => {
    const found = await findTarget(deps.users, argumentsOf(ctx)[0], ctx.msg.reply_to_message);
    if (!found.ok) {
      await ctx.reply(explainTarget(ctx.t, found, "user-usage"));
      return;
    }
    await ctx.reply(formatUserReport(ctx.t, await collectUserReport(deps.db, deps.ledger, found.user)));
  });

  registerGrant(admins, { users: deps.users, ledger: deps.ledger, store: grantStore(deps.db, deps.ledger) });
  registerRefund(admins, { payments: deps.payments, users: deps.users });
  registerBan(admins, { users: deps.users, generations: deps.generations, adminIds: deps.adminIds });
  return outer;
}
