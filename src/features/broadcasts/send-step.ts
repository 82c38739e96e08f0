import type { Api } from "grammy";
import type { Logger } from "../../platform/lib/logger";
import { classifyTelegramError } from "../../platform/telegram/telegram-error";
import type { BroadcastStore } from "./store";

export interface SendDeps {
  store: Pick<BroadcastStore, "claim" | "unclaim" | "record">;
  /** an Api without automatic 429 retries: a 429 must pause every worker's limiter, not one call */
  api: Pick<Api, "copyMessage" | "copyMessages">;
  logger: Logger;
  markBlocked(userId: number): Promise<void>;
}

export type CopyOutcome =
  /** already handled, or the broadcast stopped: nothing sent */
  | { kind: "skipped" }
  | { kind: "sent" }
  | { kind: "blocked" }
  | { kind: "failed"; reason: string }
  /** no clear answer (a timeout, a lost connection, a 5xx): the copy may have been made; not tried again */
  | { kind: "unconfirmed"; reason: string }
  /** Telegram's flood control: nothing may be sent for this long; the copy was not made */
  | { kind: "flood"; retryAfterSeconds: number };

/**
 * One recipient's copy, at most once: the row is claimed before the call, so
 * a crash after it never leads to a second copy. Only a 429 (Telegram made no
 * copy) hands the row back.
 */
export async function copyToRecipient(bid: string, userId: number, deps: SendDeps): Promise<CopyOutcome> {
  const source = await deps.store.claim(bid, userId);
  if (!source) return { kind: "skipped" };
  const { chatId: from, messageIds: ids } = source;
  let messageId: number;
  try {
    const copied =
      ids.length === 1
        ? [await deps.api.copyMessage(userId, from, ids[0]!)]
        : await deps.api.copyMessages(userId, from, ids);
    messageId = copied[0]?.message_id ?? 0;
  } catch (err) {
    return settleFailure(bid, userId, err, deps);
  }
  await deps.store.record(bid, userId, { state: "sent", messageId });
  return { kind: "sent" };
}

async function settleFailure(
  bid: string,
  userId: number,
  err: unknown,
  deps: SendDeps,
): Promise<CopyOutcome> {
  const failure = classifyTelegramError(err);
  if (failure?.kind === "flood") {
    await deps.store.unclaim(bid, userId);
    return { kind: "flood", retryAfterSeconds: failure.retryAfter };
  }
  const reason = err instanceof Error ? err.message : String(err);
  if (failure?.kind === "blocked") {
    await deps.store.record(bid, userId, { state: "blocked", error: reason });
    await deps.markBlocked(userId);
    return { kind: "blocked" };
  }
  if (!failure || failure.kind === "transient") {
    // a lost connection, a timeout or a 5xx: Telegram may have made the copy
    deps.logger.warn({ err, broadcastId: bid, userId }, "broadcast copy got no clear answer");
    await deps.store.record(bid, userId, { state: "unconfirmed", error: reason });
    return { kind: "unconfirmed", reason };
  }
  // Telegram's other refusals
  await deps.store.record(bid, userId, { state: "failed", error: reason });
  return { kind: "failed", reason };
}
