import { Composer } from "grammy";
import type { BotContext } from "../../bot/context";
import type { DeliveryRecords } from "../../domain/generations/delivery-records";
import type { GenerationReads } from "../../domain/generations/reads";
import { stillRunning } from "../../domain/generations/states";
import { showStatus } from "../../domain/generations/status";
import type { GenerationTransitions } from "../../domain/generations/transitions";
import { translateFor } from "../../platform/i18n/i18n";
import { classifyTelegramError } from "../../platform/telegram/telegram-error";

/**
 * /cancel, always reachable (registered before the conversations): leaves the
 * conversation in progress, and cancels the user's requests that are still
 * queued (not yet sent to the studio), which releases their credits.
 */
export function cancelFeature(deps: {
  generations?: Pick<GenerationReads, "recent"> &
    Pick<GenerationTransitions, "cancel"> &
    Pick<DeliveryRecords, "setStatusShown">;
}): Composer<BotContext> {
  const cancelFeature = new Composer<BotContext>();

  cancelFeature.command("cancel", async (ctx) => {
    const userId = ctx.from?.id;
    const inConversation = Object.keys(ctx.conversation?.active() ?? {}).length > 0;
    if (inConversation) await ctx.conversation.exitAll();

    const generations = deps.generations;
    const lines: string[] = [];
    if (inConversation) lines.push(ctx.t("cancel-conversation"));
    if (generations && userId !== undefined) {
      const recent = await generations.recent(userId, 20);
      for (const g of recent.filter((r) => r.state === "queued")) {
        const cancelled = await generations.cancel(g.id, userId);
        if (!cancelled) continue;
        lines.push(ctx.t("cancel-generation", { price: cancelled.price }));
        // a request confirmed in inline mode shows its status in the placed message
        if (cancelled.statusMessageId || cancelled.inlineMessageId) {
          await showStatus(ctx.api, generations, cancelled, translateFor).catch((err: unknown) => {
            // the notice is cosmetic: the cancellation itself stands
            if (!classifyTelegramError(err)) throw err;
          });
        }
      }
      // queued ones were just cancelled: what still runs is beyond reach
      if (lines.length === 0 && recent.some((r) => stillRunning.includes(r.state)))
        lines.push(ctx.t("cancel-too-late"));
    }
    await ctx.reply(lines.length > 0 ? lines.join("\n") : ctx.t("cancel-nothing"));
  });
  return cancelFeature;
}
