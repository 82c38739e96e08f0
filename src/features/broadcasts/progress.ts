import { InlineKeyboard } from "grammy";
import type { TranslateFor } from "../../platform/i18n/i18n";
import { stopBroadcastData } from "../../platform/telegram/callback-data";
import type { Broadcast, RecipientCounts } from "./store";

/** Seconds as m:ss or h:mm:ss. */
export function clockText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/**
 * Seconds left at the pace seen so far (or at the send limit before anything
 * went out).
 */
export function etaSeconds(counts: RecipientCounts, elapsedMs: number, limitPerSecond: number): number {
  const done = counts.sent + counts.failed + counts.blocked + counts.unconfirmed;
  const remaining = counts.pending + counts.sending;
  const rate = done > 0 && elapsedMs > 0 ? done / (elapsedMs / 1000) : limitPerSecond;
  return remaining / Math.max(rate, 0.001);
}

export interface ProgressView {
  text: string;
  keyboard?: InlineKeyboard;
}

/**
 * What the admin's progress message says: running (with ETA and a stop button),
 * finished, or stopped; with the unconfirmed copies on a line of their own when there are any.
 */
export function progressView(
  b: Broadcast,
  counts: RecipientCounts,
  t: TranslateFor,
  pace: { elapsedMs: number; limitPerSecond: number },
): ProgressView {
  const vars = {
    sent: counts.sent + (b.state === "sending" ? 0 : counts.sending),
    failed: counts.failed,
    blocked: counts.blocked,
    remaining: counts.pending + (b.state === "sending" ? counts.sending : 0),
    total: counts.total,
  };
  const withUnconfirmed = (text: string) =>
    counts.unconfirmed === 0
      ? text
      : `${text}\n${t(b.language, "bc-unconfirmed", { unconfirmed: counts.unconfirmed })}`;
  if (b.state === "done") return { text: withUnconfirmed(t(b.language, "bc-done", vars)) };
  if (b.state === "cancelled") return { text: withUnconfirmed(t(b.language, "bc-cancelled", vars)) };
  const eta = clockText(etaSeconds(counts, pace.elapsedMs, pace.limitPerSecond));
  return {
    text: withUnconfirmed(t(b.language, "bc-progress", { ...vars, eta })),
    keyboard: new InlineKeyboard().text(t(b.language, "bc-btn-stop"), stopBroadcastData.make(b.id)),
  };
}
