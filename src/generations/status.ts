import type { Api } from "grammy";
import type { GenerationState } from "../db/schema";
import type { Translate, TranslateFor } from "../i18n/i18n";
import { editInlineText } from "../telegram/edit-inline";
import { isTelegramFailure } from "../telegram/telegram-error";
import type { Generations } from "./service";
import type { Generation } from "./types";

export interface StatusView {
  text: string;
}

type StatusRow = (g: Generation, t: TranslateFor) => StatusView;

const say =
  (key: string): StatusRow =>
  (g, t) => ({ text: t(g.language, key) });

/** The user-facing reason of a generation that ended without a result. */
const endedWithoutResult: StatusRow = (g, t) => {
  const reason = typeof g.error?.reason === "string" ? g.error.reason : "";
  const vars = { price: g.price };
  if (g.state === "rejected")
    return { text: t(g.language, "gen-rejected", { reason: t(g.language, "reason-invalid-request") }) };
  if (g.state === "expired") return { text: t(g.language, "gen-expired", vars) };
  if (reason === "service_unavailable") return { text: t(g.language, "gen-failed-unavailable", vars) };
  if (reason === "part_failed")
    return { text: t(g.language, "gen-dub-part-failed", { ...vars, part: Number(g.error?.part) || 1 }) };
  const source = sourceRefusalText(g.error, g.price);
  if (source) return { text: t(g.language, source.key, source.vars) };
  if (reason === "undeliverable")
    return { text: t(g.language, "gen-undeliverable", { price: g.charged ?? 0 }) };
  return { text: t(g.language, "gen-failed", vars) };
};

/** What the status message says of a generation whose source was refused: a locale key and its values. */
function sourceRefusalText(
  error: Record<string, unknown> | null,
  price: number,
): { key: string; vars: Record<string, string | number> } | undefined {
  switch (error?.reason) {
    case "source_longer": {
      const total = Math.round(Number(error.seconds) || 0);
      return {
        key: "dub-pin-longer",
        vars: { minutes: Math.floor(total / 60), seconds: total % 60, price },
      };
    }
    case "source_too_long": {
      const total = Math.round(Number(error.seconds) || 0);
      return {
        key: "dub-source-too-long",
        vars: {
          minutes: Math.floor(total / 60),
          seconds: total % 60,
          max: Number(error.maxMinutes) || 0,
          price,
        },
      };
    }
    case "source_too_large":
      return {
        key: "dub-pin-too-large",
        vars: { limit: Math.round((Number(error.maxBytes) || 0) / 100_000) / 10, price },
      };
    case "source_unreachable":
      return { key: "dub-pin-unreachable", vars: { price } };
    case "source_uncut":
      return { key: "dub-source-uncut", vars: { price } };
    case "source_unreadable":
      return { key: "dub-pin-unreadable", vars: { price } };
    default:
      return undefined;
  }
}

/** What the status message of a generation says in each state: the one table. */
const statusTable: Record<GenerationState, StatusRow> = {
  queued: say("gen-queued"),
  // the service has not answered yet: to the user it is still waiting its turn
  submitting: say("gen-queued"),
  // a dub in parts says which part is being dubbed
  pending: (g, t) =>
    g.partsTotal && g.partsTotal > 1
      ? {
          text: t(g.language, "gen-dubbing-part", {
            part: Math.min((g.partsDone ?? 0) + 1, g.partsTotal),
            total: g.partsTotal,
          }),
        }
      : { text: t(g.language, "gen-generating") },
  // the result is being sent: the status changes once it is in the chat
  completed: say("gen-generating"),
  delivering: say("gen-generating"),
  // the result's buttons are under the result itself (send-outputs.ts), not here
  delivered: (g, t) => ({
    text: t(g.language, g.late ? "gen-done-late" : "gen-done", { cost: g.charged ?? 0 }),
  }),
  failed: endedWithoutResult,
  rejected: endedWithoutResult,
  expired: endedWithoutResult,
  cancelled: say("cancel-status"),
};

/** From this many requests waiting before the user's, the queued status shows their place. */
const longQueue = 3;

/** The queued status as the user first sees it: with their place when the queue is long. */
export function queuedText(t: Translate, waitingAhead: number): string {
  const text = t("gen-queued");
  return waitingAhead < longQueue
    ? text
    : `${text}\n${t("cv-queue-position", { position: waitingAhead + 1 })}`;
}

/** What the status says of a generation in `g`'s state. */
export function statusView(g: Generation, t: TranslateFor): StatusView {
  return statusTable[g.state](g, t);
}

/** The Telegram calls that show a status: an edit in place, or a new message. */
export type StatusApi = Pick<
  Api,
  "editMessageText" | "sendMessage" | "editMessageTextInline" | "deleteMessage"
>;

export interface ShowOptions {
  /**
   * said in a new message below, the old status deleted: news that may come long
   * after the request (an edit notifies nobody)
   */
  anew?: boolean;
}

/**
 * The only writer of a generation's status message, in a chat or in inline mode:
 * shows what the table says for its state, edited in place (or `anew`). An edit to
 * the text already shown is skipped (Telegram would answer "message is not
 * modified"), and a status message in a chat that is gone is replaced by a new one.
 */
export async function showStatus(
  api: StatusApi,
  generations: Pick<Generations, "setStatusShown">,
  g: Generation,
  t: TranslateFor,
  options: ShowOptions = {},
): Promise<void> {
  // confirmed in inline mode: the placed message is the status message
  if (g.inlineMessageId)
    return showInlineStatus(api, generations, { ...g, inlineMessageId: g.inlineMessageId }, t);
  if (g.chatId === null) return;
  const { text } = statusView(g, t);
  if (g.statusShown === text) return;
  if (g.statusMessageId && !options.anew) {
    try {
      await api.editMessageText(g.chatId, g.statusMessageId, text);
      await generations.setStatusShown(g.id, text);
      return;
    } catch (err) {
      if (isTelegramFailure(err, "not-modified")) {
        await generations.setStatusShown(g.id, text);
        return;
      }
      if (!isTelegramFailure(err, "message-gone")) throw err;
    }
  }
  const m = await api.sendMessage(g.chatId, text, {
    ...(g.threadId ? { message_thread_id: g.threadId } : {}),
    ...(g.replyToMessageId
      ? { reply_parameters: { message_id: g.replyToMessageId, allow_sending_without_reply: true } }
      : {}),
  });
  await generations.setStatusShown(g.id, text, m.message_id);
  // what it said ("working on it") is over: a status left behind would contradict the new one
  if (options.anew && g.statusMessageId)
    await api.deleteMessage(g.chatId, g.statusMessageId).catch(() => undefined);
}

/**
 * The status of a generation confirmed in inline mode, shown in the placed
 * message (by inline_message_id) with the texts of the table. Once delivered,
 * the message is the result itself (its caption tells the cost). A message that
 * is gone cannot be replaced (an inline message is not ours to send again):
 * what we meant to show is recorded all the same.
 */
async function showInlineStatus(
  api: StatusApi,
  generations: Pick<Generations, "setStatusShown">,
  g: Generation & { inlineMessageId: string },
  t: TranslateFor,
): Promise<void> {
  if (g.state === "delivered") return;
  const text =
    g.error?.reason === "undeliverable"
      ? t(g.language, "inline-undeliverable", { price: g.charged ?? 0 })
      : statusView(g, t).text;
  if (g.statusShown === text) return;
  await editInlineText(api, g.inlineMessageId, text);
  await generations.setStatusShown(g.id, text);
}
