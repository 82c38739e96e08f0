import { Composer, GrammyError } from "grammy";
import type { BotContext } from "../context";

const stillRunning = new Set(["submitting", "pending"]);

/**
 * /cancel, always reachable (registered before the conversations): leaves the
 * conversation in progress, and cancels the user's requests that are still
 * queued (not yet sent to the studio), which releases their credits.
 */
export const cancelFeature = new Composer<BotContext>();

cancelFeature.command("cancel", async (ctx) => {
  const userId = ctx.from?.id;
  const inConversation = Object.keys(ctx.conversation?.active() ?? {}).length > 0;
  if (inConversation) await ctx.conversation.exitAll();

  const generations = ctx.deps.generations;
  const lines: string[] = [];
  if (inConversation) lines.push(ctx.t("cancel-conversation"));
  if (generations && userId !== undefined) {
    const recent = await generations.recent(userId, 20);
    for (const g of recent.filter((r) => r.state === "queued")) {
      const cancelled = await generations.cancel(g.id, userId);
      if (!cancelled) continue;
      lines.push(ctx.t("cancel-generation", { price: cancelled.price }));
      if (cancelled.chatId !== null && cancelled.statusMessageId) {
        const text = ctx.t("cancel-status");
        try {
          await ctx.api.editMessageText(cancelled.chatId, cancelled.statusMessageId, text);
          await generations.setStatusShown(cancelled.id, text);
        } catch (err) {
          if (!(err instanceof GrammyError)) throw err;
        }
      }
    }
    if (lines.length === 0 && recent.some((r) => stillRunning.has(r.state)))
      lines.push(ctx.t("cancel-too-late"));
  }
  await ctx.reply(lines.length > 0 ? lines.join("\n") : ctx.t("cancel-nothing"));
});
