import { createConversation } from "@grammyjs/conversations";
import { Composer, type Context } from "grammy";
import type { BotContext } from "../../bot/context";
import { conversationApi } from "../../bot/conversations/plugin";
import { adminsOnly } from "../../bot/middleware/admins-only";
import type { Users } from "../../domain/users/users";
import type { Database } from "../../platform/db/client";
import type { Logger } from "../../platform/lib/logger";
import { stopBroadcastData } from "../../platform/telegram/callback-data";
import { countAudience } from "./audience";
import { broadcastConversation } from "./conversation";
import type { BroadcastQueue } from "./jobs";
import type { BroadcastStore } from "./store";

export interface BroadcastFeatureDeps {
  db: Database;
  store: Pick<BroadcastStore, "create" | "end" | "unfinished">;
  queue: Pick<BroadcastQueue, "tick" | "tickNow">;
  adminIds: readonly number[];
  logger: Logger;
  users: Pick<Users, "markBlocked">;
}

/** An admin's draft is kept this long (real time) before the next update ends it. */
const draftIdleMs = 24 * 60 * 60 * 1000;

/**
 * /broadcast (a conversation), /broadcast_cancel and the stop button under a
 * running broadcast, for admins only: anyone else's command goes on to the
 * fallback's "I did not understand that".
 */
export function broadcastFeature(deps: BroadcastFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const conversation = broadcastConversation({
    countAudience: (audience) => countAudience(deps.db, audience),
    async start(input) {
      const started = await deps.store.create(input);
      // if Redis is away the reconciler starts it
      await deps.queue.tick(started.broadcast.id).catch((err: unknown) => {
        deps.logger.warn({ err, broadcastId: started.broadcast.id }, "broadcast tick not queued");
      });
      if (started.created) {
        deps.logger.info(
          { broadcastId: started.broadcast.id, total: started.broadcast.total, adminId: input.adminId },
          "broadcast started",
        );
      }
      return started;
    },
  });
  feature.use((ctx, next) =>
    createConversation<BotContext, Context>(conversation, {
      id: "broadcast",
      maxMillisecondsToWait: draftIdleMs,
      plugins: conversationApi(deps.users, ctx),
    })(ctx, next),
  );

  const { outer, admins } = adminsOnly(deps.adminIds);
  feature.use(outer);
  const privately = admins.chatType("private");
  privately.command("broadcast", async (ctx) => {
    await ctx.conversation.exitAll();
    await ctx.conversation.enter("broadcast");
  });

  const stop = async (id: string) => {
    const stopped = await deps.store.end(id, "cancelled");
    // the tick writes the final totals on the progress message at once
    if (stopped) await deps.queue.tickNow(id).catch(() => undefined);
    return stopped;
  };
  admins.command("broadcast_cancel", async (ctx) => {
    const running = await deps.store.unfinished();
    let stopped = 0;
    for (const b of running) if (await stop(b.id)) stopped++;
    await ctx.reply(stopped === 0 ? ctx.t("bc-stop-none") : ctx.t("bc-stopping", { count: stopped }));
  });
  admins.callbackQuery(stopBroadcastData.pattern, async (ctx) => {
    const id = stopBroadcastData.parse(ctx.callbackQuery.data);
    const stopped = id !== undefined && (await stop(id));
    await ctx.answerCallbackQuery({
      text: stopped ? ctx.t("bc-stopping", { count: 1 }) : ctx.t("bc-stop-none"),
    });
  });
  return feature;
}
