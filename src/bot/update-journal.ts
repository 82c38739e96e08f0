import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Bot, MiddlewareFn } from "grammy";
import type { Update } from "grammy/types";
import type { Database } from "../db/client";
import { processedUpdates } from "../db/schema";
import type { Logger } from "../lib/logger";
import type { BotContext } from "./context";

export interface UpdateJournalOptions {
  /** real ms a handler owns an update before another process may take it over; renewed while it works */
  leaseMs: number;
  /** handling attempts before an update is given up (logged) */
  maxAttempts: number;
  /** how long done and abandoned rows are kept: Telegram redelivers within minutes, not days */
  retentionMs: number;
}

const defaultJournalOptions: UpdateJournalOptions = {
  leaseMs: 60_000,
  maxAttempts: 5,
  retentionMs: 24 * 60 * 60 * 1000,
};

/** One handler's hold on an update. */
export interface UpdateClaim {
  updateId: number;
  token: string;
  attempts: number;
}

const seconds = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;

/**
 * The update journal: an update is recorded (raw) before Telegram is told it
 * arrived (the next getUpdates offset, or a 2xx webhook answer), claimed by
 * one handler under a lease, and marked done once handled. What a crash left
 * pending is handled again by `recoverUpdates`; a redelivered copy of a done
 * update is dropped. Handlers are idempotent where it matters (spending keys),
 * so handling an update a second time after a crash is safe.
 */
export function createUpdateJournal(db: Database, options: Partial<UpdateJournalOptions> = {}) {
  const opts = { ...defaultJournalOptions, ...options };
  const owner = `${process.pid}-${randomBytes(4).toString("hex")}`;
  let claims = 0;
  const leaseEnd = () => sql`now() + ${seconds(opts.leaseMs)}`;

  /** Records updates as pending; ones already known are left as they are. */
  async function record(updates: readonly Update[]): Promise<void> {
    if (updates.length === 0) return;
    await db
      .insert(processedUpdates)
      .values(
        updates.map((u) => ({
          updateId: u.update_id,
          payload: u as unknown as Record<string, unknown>,
          state: "pending" as const,
        })),
      )
      .onConflictDoNothing();
  }

  /**
   * Takes an update for handling: recorded (if it was not) and leased to the
   * caller. Null when it is done, given up, or another handler holds a live lease.
   */
  async function claim(update: Update): Promise<UpdateClaim | null> {
    claims += 1;
    const token = `${owner}-${claims}`;
    const [row] = await db
      .insert(processedUpdates)
      .values({
        updateId: update.update_id,
        payload: update as unknown as Record<string, unknown>,
        state: "pending",
        leaseOwner: token,
        leaseUntil: leaseEnd(),
        attempts: 1,
      })
      .onConflictDoUpdate({
        target: processedUpdates.updateId,
        set: { leaseOwner: token, leaseUntil: leaseEnd(), attempts: sql`${processedUpdates.attempts} + 1` },
        setWhere: sql`${processedUpdates.state} = 'pending' and (${processedUpdates.leaseUntil} is null or ${processedUpdates.leaseUntil} < now())`,
      })
      .returning({ attempts: processedUpdates.attempts });
    return row ? { updateId: update.update_id, token, attempts: row.attempts } : null;
  }

  const held = (c: UpdateClaim) =>
    and(eq(processedUpdates.updateId, c.updateId), eq(processedUpdates.leaseOwner, c.token));

  async function renew(c: UpdateClaim): Promise<void> {
    await db.update(processedUpdates).set({ leaseUntil: leaseEnd() }).where(held(c));
  }

  async function finish(c: UpdateClaim, state: "done" | "abandoned" = "done"): Promise<void> {
    await db
      .update(processedUpdates)
      .set({ state, payload: null, leaseOwner: null, leaseUntil: null })
      .where(held(c));
  }

  /** Handling failed: the update may be taken again at once (a webhook retry, the recovery). */
  async function release(c: UpdateClaim): Promise<void> {
    await db.update(processedUpdates).set({ leaseUntil: sql`now()` }).where(held(c));
  }

  /**
   * Pending updates nobody works on: a lease that ran out (its handler died), or
   * never taken for longer than a lease (recorded, then the process died).
   */
  async function leftover(limit = 100): Promise<Update[]> {
    const rows = await db
      .select({ payload: processedUpdates.payload })
      .from(processedUpdates)
      .where(
        and(
          eq(processedUpdates.state, "pending"),
          or(
            lt(processedUpdates.leaseUntil, sql`now()`),
            and(
              isNull(processedUpdates.leaseUntil),
              lt(processedUpdates.createdAt, sql`now() - ${seconds(opts.leaseMs)}`),
            ),
          ),
        ),
      )
      .orderBy(asc(processedUpdates.updateId))
      .limit(limit);
    return rows.flatMap((r) => (r.payload ? [r.payload as unknown as Update] : []));
  }

  async function cleanup(): Promise<void> {
    await db
      .delete(processedUpdates)
      .where(
        and(
          inArray(processedUpdates.state, ["done", "abandoned"]),
          lt(processedUpdates.createdAt, sql`now() - ${seconds(opts.retentionMs)}`),
        ),
      );
  }

  return { options: opts, record, claim, renew, finish, release, leftover, cleanup };
}

export type UpdateJournal = ReturnType<typeof createUpdateJournal>;

/**
 * Replaces the start-of-handling dedupe: an update is handled only under a
 * claim, and marked done when the rest of the bot returns (errors the boundary
 * handled included). An error past the boundary releases the claim, so the
 * update is tried again; after `maxAttempts` it is given up with a warning.
 */
export function journalUpdates(journal: UpdateJournal): MiddlewareFn<BotContext> {
  const { leaseMs, maxAttempts } = journal.options;
  return async (ctx, next) => {
    const c = await journal.claim(ctx.update);
    if (!c) {
      ctx.logger.info("repeated update dropped");
      return;
    }
    if (c.attempts > maxAttempts) {
      ctx.logger.warn({ attempts: c.attempts - 1 }, "update given up after repeated failures");
      await journal.finish(c, "abandoned");
      return;
    }
    const renewal = setInterval(() => {
      journal.renew(c).catch((err: unknown) => ctx.logger.warn({ err }, "could not renew an update lease"));
    }, leaseMs / 3);
    renewal.unref();
    try {
      await next();
    } catch (err) {
      clearInterval(renewal);
      await journal.release(c).catch(() => undefined);
      throw err;
    }
    clearInterval(renewal);
    await journal.finish(c);
  };
}

/**
 * Handles again what the journal holds unfinished (a crash, a lost lease).
 * Runs at start-up and then every half lease; each update goes through the
 * whole bot, whose claim keeps two processes from handling it at once.
 */
export function startUpdateRecovery(
  bot: Bot<BotContext>,
  journal: UpdateJournal,
  logger: Logger,
  options: { cleanupEveryMs?: number } = {},
): { stop(): Promise<void> } {
  const cleanupEveryMs = options.cleanupEveryMs ?? 10 * 60_000;
  let lastCleanup = 0;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function pass(): Promise<void> {
    const updates = await journal.leftover();
    if (updates.length > 0) logger.info({ count: updates.length }, "handling updates left unfinished");
    for (const update of updates) {
      if (stopped) return;
      await bot.handleUpdate(update).catch((err: unknown) => {
        logger.warn({ err, updateId: update.update_id }, "an unfinished update failed again");
      });
    }
    if (Date.now() - lastCleanup >= cleanupEveryMs) {
      lastCleanup = Date.now();
      await journal.cleanup();
    }
  }

  const tick = () => {
    if (running || stopped) return;
    running = pass()
      .catch((err: unknown) => logger.warn({ err }, "update recovery failed"))
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, Math.max(50, journal.options.leaseMs / 2));
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
