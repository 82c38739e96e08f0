import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Bot, Context, MiddlewareFn } from "grammy";
import type { Update } from "grammy/types";
import { z } from "zod";
import { userJson } from "../domain/users/user-json";
import type { UserRecord } from "../domain/users/users";
import type { Database, Listen } from "../platform/db/client";
import { rowsOf } from "../platform/db/raw-rows";
import { processedUpdates } from "../platform/db/schema";
import { groupCommit } from "../platform/lib/group-commit";
import type { Logger } from "../platform/lib/logger";
import { messageOf } from "../platform/lib/message-of";
import { isTelegramAway, type TelegramLink } from "../platform/telegram/telegram-link";
import type { BotContext } from "./context";
import { conversationStorageKey } from "./conversations/plugin";
import { createTurns } from "./turn-wakeups";
import { detachedContext, sequenceConstraints, updateSequenceKeys } from "./update-keys";

export interface UpdateJournalOptions {
  /** real ms a handler owns an update before another process may take it over; renewed while it works */
  leaseMs: number;
  /** handling attempts before an update is given up (logged) */
  maxAttempts: number;
  /** how long done and abandoned rows are kept: Telegram redelivers within minutes, not days */
  retentionMs: number;
  /** the first pause between tries of an update waiting its turn; each next one is twice as long */
  minPauseMs: number;
  /** the longest pause between tries of an update waiting its turn (a wake-up comes sooner) */
  maxPauseMs: number;
  /**
   * LISTEN, for wake-ups from other processes: an update ending there wakes the updates
   * waiting on its chat or user here at once, instead of at their next try
   */
  listen?: Listen | undefined;
}

export const defaultJournalOptions: UpdateJournalOptions = {
  leaseMs: 60_000,
  maxAttempts: 5,
  retentionMs: 24 * 60 * 60 * 1000,
  minPauseMs: 5,
  maxPauseMs: 100,
};

/** where finish_updates (called by journal_step) announces the keys of the updates it ended (drizzle/0005) */
const turnsChannel = "update_turns";
const endedElsewhere = z.object({ by: z.string(), keys: z.array(z.string()) });

/** What a claim reads of an update's sender, when a person sent it. */
interface SenderRead {
  id: number;
  /** the stored conversation's key, when the update can have one */
  key: string | undefined;
}

/** The sender's row and stored conversation, as a claim read them once it was granted. */
export interface Sender {
  /** undefined: a new person, no row yet */
  user: UserRecord | undefined;
  /** the stored conversation's JSON (null: none stored); undefined when the update can have none */
  conversation: string | null | undefined;
}

function senderToRead(ctx: Pick<Context, "chatId" | "from">): SenderRead | undefined {
  const from = ctx.from;
  if (!from || from.is_bot) return undefined;
  return { id: from.id, key: conversationStorageKey(ctx) };
}

/** One handler's hold on an update. */
export interface UpdateClaim {
  updateId: number;
  token: string;
  attempts: number;
  /** the chat and user keys it holds: updates sharing one wait for it */
  keys: readonly string[];
  /** the sender's row and stored conversation, read once the claim was granted (none: no person sent it) */
  sender: Sender | undefined;
}

/** A claim's outcome: held, someone else's or finished ("taken"), or not its turn yet ("wait"). */
export type ClaimOutcome = UpdateClaim | "taken" | "wait";

const stepRows = z.array(
  z.object({
    claim_token: z.string(),
    // "sender": the row read for a claim with a sender
    outcome: z.enum(["claimed", "taken", "wait", "sender"]),
    attempts: z.coerce.number(),
    // postgres-js parses jsonb; PGlite too, but a driver may hand it over as text
    sender: z.preprocess((v) => (typeof v === "string" ? JSON.parse(v) : v), userJson.nullable()),
    conversation: z.string().nullable(),
  }),
);

interface ClaimAnswer {
  outcome: "claimed" | "taken" | "wait";
  attempts: number;
  /** what the claim read of its sender, when it has one */
  sender: Sender | undefined;
}

/** What goes to Postgres in one `journal_step`: updates to claim and updates finished. */
type JournalWork =
  | {
      kind: "claim";
      update: Update;
      keys: readonly string[];
      token: string;
      /** the webhook's record: the transaction waits for the disk */
      durable: boolean;
      wanted: SenderRead | undefined;
    }
  | { kind: "finish"; id: number; token: string; state: "done" | "abandoned"; keys: readonly string[] };

// Claims taken on arrival (webhook), keyed by the update object grammY hands
// its context: the handler takes them over whichever journal instance it uses.
const arrived = new WeakMap<Update, UpdateClaim>();

const seconds = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;

/**
 * The update journal: an update is recorded (raw, with its chat and user keys)
 * before Telegram is told it arrived (the next getUpdates offset, or a 2xx
 * webhook answer), claimed by one handler under a lease, and marked done once
 * handled. The claim (`claim_updates` in Postgres) also keeps order across
 * processes: an update is leased only when no earlier one of its chat or user
 * is pending and none is in hand anywhere. What a crash left pending is
 * handled again by `recoverUpdates`; a redelivered copy of a done update is
 * dropped. Handlers are idempotent where it matters (spending keys), so
 * handling an update a second time after a crash is safe.
 */
export function createUpdateJournal(db: Database, options: Partial<UpdateJournalOptions> = {}) {
  const opts = { ...defaultJournalOptions, ...options };
  const owner = `${process.pid}-${randomBytes(4).toString("hex")}`;
  let claims = 0;
  /** claims this journal granted that are not finished or released yet */
  let inHand = 0;
  const leaseEnd = () => sql`now() + ${seconds(opts.leaseMs)}`;
  const turns = createTurns();

  // Claims and finishes made while a round trip is under way go together in
  // the next one (`journal_step`): under load one transaction (one wait for
  // the disk, for the webhook's durable records) serves many updates.
  const step = groupCommit(
    async (items: readonly JournalWork[]): Promise<(ClaimAnswer | undefined | Error)[]> => {
      const claimed = items.flatMap((i) =>
        i.kind === "claim"
          ? [
              {
                id: i.update.update_id,
                payload: i.update,
                keys: i.keys,
                token: i.token,
                sender: i.wanted?.id ?? null,
                conversation_key: i.wanted?.key ?? null,
              },
            ]
          : [],
      );
      const finished = items.flatMap((i) =>
        i.kind === "finish" ? [{ id: i.id, token: i.token, state: i.state, keys: i.keys }] : [],
      );
      const durable = items.some((i) => i.kind === "claim" && i.durable);
      const result = await db.execute(
        sql`select claim_token, outcome, attempts, sender, conversation from journal_step(${JSON.stringify(finished)}::jsonb, ${JSON.stringify(claimed)}::jsonb, ${owner}, ${opts.leaseMs}, ${durable})`,
      );
      const answers = new Map<string, ClaimAnswer>();
      const senders = new Map<string, Sender>();
      for (const r of stepRows.parse(rowsOf(result))) {
        if (r.outcome === "sender")
          senders.set(r.claim_token, { user: r.sender ?? undefined, conversation: r.conversation });
        else answers.set(r.claim_token, { outcome: r.outcome, attempts: r.attempts, sender: undefined });
      }
      return items.map((i) => {
        if (i.kind === "finish") return undefined;
        const answer = answers.get(i.token);
        if (!answer) return new Error(`no claim answer for update ${i.update.update_id}`);
        return { ...answer, sender: senders.get(i.token) };
      });
    },
    {
      // an update may be up to 1 MB (the webhook's cap): a batch stays a bounded statement;
      // the keys finished go out in one NOTIFY, whose payload Postgres caps at 8,000 bytes
      maxBatch: 64,
      // Nothing waits on a finish but its own handler's end, and under load (other updates
      // in hand here) nothing is lost by a claim waiting a few ms: they gather, and a few
      // updates share one round trip. A claim with nothing else in hand goes at once.
      lingers: (work) => work.kind === "finish" || inHand >= 2,
    },
  );
  const unlistening = opts.listen?.(turnsChannel, (payload) => {
    try {
      const ended = endedElsewhere.parse(JSON.parse(payload));
      if (ended.by !== owner) turns.end(ended.keys);
    } catch {
      // not ours to read: the waiters still try again after their pause
    }
  });
  // no LISTEN (a connection refused it): waiters fall back to their pauses
  unlistening?.catch(() => undefined);

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
          sequenceKeys: updateSequenceKeys(u),
        })),
      )
      .onConflictDoNothing();
  }

  /**
   * Takes an update for handling, if it is its turn: recorded (if it was not)
   * and leased to the caller. `durable` waits for the disk (the record a
   * webhook answer promises); a claim alone need not.
   */
  async function claim(
    update: Update,
    keys: readonly string[] = updateSequenceKeys(update),
    durable = false,
  ): Promise<ClaimOutcome> {
    claims += 1;
    const token = `${owner}-${claims}`;
    const wanted = senderToRead(detachedContext(update));
    const row = await step({ kind: "claim", update, keys, token, durable, wanted });
    if (!row) throw new Error(`no claim answer for update ${update.update_id}`);
    if (row.outcome !== "claimed") return row.outcome;
    inHand += 1;
    return {
      updateId: update.update_id,
      token,
      attempts: row.attempts,
      keys,
      sender: wanted && {
        user: row.sender?.user,
        conversation: wanted.key === undefined ? undefined : (row.sender?.conversation ?? null),
      },
    };
  }

  /**
   * The webhook's record: written to disk before Telegram gets its answer, and
   * claimed in the same step when it is the update's turn; the handler that
   * runs next (`claimInTurn`) takes that claim over instead of asking again.
   * False when the update was handled already (a redelivery).
   */
  async function arrive(update: Update): Promise<boolean> {
    const outcome = await claim(update, updateSequenceKeys(update), true);
    if (typeof outcome === "object") arrived.set(update, outcome);
    return outcome !== "taken";
  }

  /**
   * Claims an update once it is its turn: woken when an update sharing a key
   * ends in this process, or after a short pause (another process holds it).
   * Gives up after two leases: whatever holds the turn has died with its lease
   * and the recovery hands the update on; the caller's failure makes it retried.
   */
  async function claimInTurn(update: Update, keys: readonly string[]): Promise<UpdateClaim | "taken"> {
    const taken = arrived.get(update);
    if (taken) {
      arrived.delete(update);
      return taken;
    }
    const deadline = Date.now() + 2 * opts.leaseMs;
    const watching = turns.watch(keys);
    try {
      for (let pause = opts.minPauseMs; ; pause = Math.min(opts.maxPauseMs, pause * 2)) {
        const outcome = await claim(update, keys);
        if (outcome !== "wait") return outcome;
        if (Date.now() > deadline)
          throw new Error(`update ${update.update_id} waited two leases for its turn`);
        await watching.wait(pause);
      }
    } finally {
      watching.close();
    }
  }

  const held = (c: UpdateClaim) =>
    and(eq(processedUpdates.updateId, c.updateId), eq(processedUpdates.leaseOwner, c.token));

  async function renew(c: UpdateClaim): Promise<void> {
    await db.update(processedUpdates).set({ leaseUntil: leaseEnd() }).where(held(c));
  }

  async function finish(c: UpdateClaim, state: "done" | "abandoned" = "done"): Promise<void> {
    inHand -= 1;
    const finished = step({ kind: "finish", id: c.updateId, token: c.token, state, keys: c.keys });
    // an update here waiting on these keys may ask at once: its claim goes in the same
    // step as this finish, after it
    turns.end(c.keys);
    await finished;
  }

  /**
   * Handling failed: the update may be taken again at once (a webhook retry, the recovery).
   * `counted` false: the try does not count towards giving the update up (Telegram was away).
   */
  async function release(c: UpdateClaim, counted = true): Promise<void> {
    inHand -= 1;
    try {
      await db
        .update(processedUpdates)
        .set({
          leaseUntil: sql`now()`,
          ...(counted ? {} : { attempts: sql`greatest(${processedUpdates.attempts} - 1, 0)` }),
        })
        .where(held(c));
    } finally {
      turns.end(c.keys);
    }
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
          isNotNull(processedUpdates.payload),
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

  /** Stops listening for other processes' wake-ups. */
  async function close(): Promise<void> {
    const unlisten = await unlistening?.catch(() => undefined);
    await unlisten?.().catch(() => undefined);
  }

  return {
    options: opts,
    owner,
    close,
    record,
    arrive,
    claim,
    claimInTurn,
    renew,
    finish,
    release,
    leftover,
    cleanup,
  };
}

export type UpdateJournal = ReturnType<typeof createUpdateJournal>;

/** How an update that met Telegram away is handled again once Telegram answers. */
export interface TelegramReturn {
  /** asked whether Telegram answers, and waited on while it does not */
  link: Pick<TelegramLink, "answers" | "waitForTelegram">;
  /** handles the update again through the whole bot */
  again(update: Update): Promise<void>;
}

/**
 * Replaces the start-of-handling dedupe: an update is handled only under a
 * claim, and marked done when the rest of the bot returns (errors the boundary
 * handled included). An error past the boundary releases the claim, so the
 * update is tried again; after `maxAttempts` it is given up with a warning.
 * Telegram away (no connection, a 5xx, and getMe unanswered too) is no
 * failure: the update stays pending, the try not counted, and is handled again
 * once Telegram answers (the later updates of its chat and user wait their
 * turn behind it). A 5xx while getMe answers is a refusal: a counted try.
 */
export function journalUpdates(
  journal: UpdateJournal,
  telegramReturn?: TelegramReturn,
): MiddlewareFn<BotContext> {
  const { leaseMs, maxAttempts } = journal.options;
  /** updates waiting in this process for Telegram to answer */
  const kept = new Set<number>();
  return async (ctx, next) => {
    const c = await journal.claimInTurn(ctx.update, sequenceConstraints(ctx));
    if (c === "taken") {
      ctx.logger.info("repeated update dropped");
      return;
    }
    // what the handlers read first (the banned check, the registration, the
    // conversation), read by the claim in the same round trip
    ctx.knownUser = c.sender?.user;
    ctx.storedConversation =
      c.sender?.conversation === undefined ? undefined : { json: c.sender.conversation };
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
      if (!telegramReturn || !isTelegramAway(err)) {
        await journal.release(c).catch(() => undefined);
        throw err;
      }
      const { link, again } = telegramReturn;
      // Telegram answering others refused this call (a 5xx): a try, counted and made again at once;
      // Telegram away: the update waits for it, however long, the try not counted
      const refused = await link.answers();
      await journal.release(c, refused).catch(() => undefined);
      const reason = messageOf(err);
      if (refused) ctx.logger.info({ reason }, "Telegram refused a call in passing: update tried again");
      else ctx.logger.info({ reason }, "Telegram away: update kept until it answers");
      const id = ctx.update.update_id;
      // the recovery pass may meet it again while Telegram is away: one waiter is enough
      if (kept.has(id)) return;
      kept.add(id);
      void (refused ? Promise.resolve() : link.waitForTelegram())
        .then(() => {
          kept.delete(id);
          return again(ctx.update);
        })
        .catch((e: unknown) => ctx.logger.warn({ err: e }, "a kept update failed again"));
      return;
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
): { stop(): Promise<void> } {
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
