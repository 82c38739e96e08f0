import { lt, sql } from "drizzle-orm";
import type { MiddlewareFn } from "grammy";
import { processedUpdates } from "../../db/schema";
import type { BotContext } from "../context";

export interface DedupeOptions {
  /** how long an update id is remembered; Telegram redelivers within minutes, not days */
  retentionMs: number;
  /** at most one cleanup per process in this interval */
  cleanupEveryMs: number;
}

const defaults: DedupeOptions = { retentionMs: 24 * 60 * 60 * 1000, cleanupEveryMs: 10 * 60 * 1000 };

/**
 * Drops an update whose `update_id` was seen before, in any process: Telegram
 * redelivers on a slow or failed webhook answer, and a restart of polling may
 * fetch the same batch again. The first processor to insert the id wins.
 */
export function dedupeUpdates(options: Partial<DedupeOptions> = {}): MiddlewareFn<BotContext> {
  const { retentionMs, cleanupEveryMs } = { ...defaults, ...options };
  let lastCleanup = 0;

  return async (ctx, next) => {
    const { db } = ctx.deps;
    const inserted = await db
      .insert(processedUpdates)
      .values({ updateId: ctx.update.update_id })
      .onConflictDoNothing()
      .returning({ updateId: processedUpdates.updateId });
    if (inserted.length === 0) {
      ctx.logger.info("repeated update dropped");
      return;
    }

    const now = Date.now();
    if (now - lastCleanup >= cleanupEveryMs) {
      lastCleanup = now;
      const cutoff = sql`now() - make_interval(secs => ${retentionMs / 1000})`;
      db.delete(processedUpdates)
        .where(lt(processedUpdates.createdAt, cutoff))
        .then(
          () => {},
          (err: unknown) => ctx.logger.warn({ err }, "cleanup of processed updates failed"),
        );
    }
    await next();
  };
}
