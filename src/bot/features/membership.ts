import { Composer } from "grammy";
import type { BotContext, BotDeps } from "../context";

/**
 * Telegram tells the bot when a user blocks it (my_chat_member, status
 * "kicked" in the private chat): mark them, so broadcasts and deliveries skip them.
 */
export function membershipFeature(deps: Pick<BotDeps, "users">): Composer<BotContext> {
  const membershipFeature = new Composer<BotContext>();

  membershipFeature.chatType("private").on("my_chat_member", async (ctx) => {
    if (ctx.myChatMember.new_chat_member.status === "kicked") {
      await deps.users.markBlocked(ctx.from.id);
      ctx.logger.info({ userId: ctx.from.id }, "user blocked the bot");
    }
  });
  return membershipFeature;
}
