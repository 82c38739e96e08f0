import type { Api } from "grammy";
import { z } from "zod";
import type { TranslateFor } from "../../platform/i18n/i18n";
import type { Logger } from "../../platform/lib/logger";
import { classifyTelegramError } from "../../platform/telegram/telegram-error";
import { progressView } from "./progress";
import type { BroadcastStore } from "./store";

/** A broadcast's heartbeat (the tick job's data): tops up its sends, edits the admin's progress, finishes it. */
export const tickData = z.object({
  v: z.literal(1),
  bid: z.uuid(),
  /** the highest user id queued so far (lost with Redis: the tick starts over, the rows decide) */
  cursor: z.number().int().nonnegative().default(0),
  /** the progress text last shown, so an unchanged one is not sent again */
  shown: z.string().max(4096).optional(),
});
export type BroadcastTickJob = z.infer<typeof tickData>;

export interface TickDeps {
  store: Pick<BroadcastStore, "get" | "counts" | "pendingAfter" | "settleStaleClaims" | "end">;
  queue: {
    /** queues one copy per user id (a copy still queued is not queued twice) */
    copies(bid: string, userIds: readonly number[]): Promise<void>;
    /** copies queued and not yet run */
    outstanding(): Promise<number>;
  };
  api: Pick<Api, "editMessageText">;
  t: TranslateFor;
  logger: Logger;
  /** the global send limit (messages/s): how far ahead copies are queued, and the first ETA */
  sendsPerSecond: number;
  /** real ms between ticks: the progress message is edited at most this often */
  tickMs: number;
  /** real ms after which a claimed copy that never reported back is settled as unconfirmed */
  claimStaleMs: number;
  now(): number;
}

export type TickOutcome =
  | { kind: "gone" }
  | { kind: "finished"; state: "done" | "cancelled" }
  | { kind: "again"; data: BroadcastTickJob; delayMs: number }
  | { kind: "flood"; retryAfterSeconds: number };

/**
 * One beat of a broadcast: tops up the queued copies (paged from Postgres, a
 * few ticks' worth ahead, never the whole audience), edits the admin's
 * progress message when its text changed, and ends the broadcast once no
 * recipient is left. Safe to run again at any point: the rows decide.
 */
export async function tickBroadcast(job: BroadcastTickJob, deps: TickDeps): Promise<TickOutcome> {
  const { store } = deps;
  let b = await store.get(job.bid);
  if (!b) return { kind: "gone" };
  let counts = await store.counts(b.id);
  if (b.state === "sending" && counts.pending === 0) {
    if (counts.sending > 0 && (await store.settleStaleClaims(b.id, deps.claimStaleMs)) > 0) {
      counts = await store.counts(b.id);
    }
    if (counts.sending === 0 && (await store.end(b.id, "done"))) {
      deps.logger.info({ broadcastId: b.id, ...counts }, "broadcast finished");
    }
    b = (await store.get(b.id)) ?? b;
  }

  let cursor = job.cursor;
  if (b.state === "sending") cursor = await topUp(b.id, cursor, deps);

  const view = progressView(b, counts, deps.t, {
    elapsedMs: deps.now() - b.createdAt.getTime(),
    limitPerSecond: deps.sendsPerSecond,
  });
  let shown = job.shown;
  if (view.text !== shown && b.progressChatId !== null && b.progressMessageId !== null) {
    try {
      await deps.api.editMessageText(b.progressChatId, b.progressMessageId, view.text, {
        reply_markup: view.keyboard ?? { inline_keyboard: [] },
      });
    } catch (err) {
      const failure = classifyTelegramError(err);
      if (failure?.kind === "flood") return { kind: "flood", retryAfterSeconds: failure.retryAfter };
      // not modified, or the admin deleted it: the broadcast goes on regardless
      if (failure?.kind !== "not-modified" && failure?.kind !== "message-gone") {
        deps.logger.warn({ err, broadcastId: b.id }, "broadcast progress not shown");
      }
    }
    shown = view.text;
  }
  if (b.state !== "sending") return { kind: "finished", state: b.state };
  return { kind: "again", data: { v: 1, bid: b.id, cursor, shown }, delayMs: deps.tickMs };
}

/**
 * Queues the next pending recipients after `cursor` until about three ticks'
 * worth of copies wait. At the end of the list it starts over from the first
 * pending one: a copy whose job was lost (a Redis flush) is queued again, one
 * still queued keeps its job (same job id).
 */
async function topUp(bid: string, cursor: number, deps: TickDeps): Promise<number> {
  const ahead = Math.max(50, Math.ceil((deps.sendsPerSecond * deps.tickMs * 3) / 1000));
  const room = ahead - (await deps.queue.outstanding());
  if (room <= 0) return cursor;
  let ids = await deps.store.pendingAfter(bid, cursor, room);
  if (ids.length === 0 && cursor > 0) ids = await deps.store.pendingAfter(bid, 0, room);
  if (ids.length === 0) return cursor;
  await deps.queue.copies(bid, ids);
  return ids[ids.length - 1]!;
}
