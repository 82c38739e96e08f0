import type { Api } from "grammy";
import type { GenerationState } from "../../platform/db/schema";
import { audienceOfChatId, forAudienceFor } from "../../platform/i18n/audience";
import type { Translate, TranslateFor } from "../../platform/i18n/i18n";
import { editInlineText } from "../../platform/telegram/edit-inline";
import { isTelegramFailure } from "../../platform/telegram/telegram-error";
import type { DeliveryRecords } from "./delivery-records";
import type { Generation } from "./types";
import type { UsualDuration, UsualDurations, Wait } from "./usual-durations";

export interface StatusView {
  text: string;
}

type StatusRow = (g: Generation, t: TranslateFor) => StatusView;

/** A duration as the status says it: whole seconds up to 10, then fives, then whole minutes. */
function durationText(seconds: number, say: (key: string, vars: { n: number }) => string): string {
  const fives = Math.round(seconds / 5) * 5;
  if (seconds < 10) return say("wait-seconds", { n: Math.max(1, Math.round(seconds)) });
  if (fives < 60) return say("wait-seconds", { n: fives });
  return say("wait-minutes", { n: Math.max(1, Math.round(seconds / 60)) });
}

/**
 * The line under a waiting status: how long such a request usually takes (or,
 * when its length gives it an estimate of its own, about how long is left) and,
 * from the first minute on, how long this one has been. It changes at most once
 * a minute (and when the estimate moves), so the edits it costs stay well
 * within Telegram's limits. Undefined when there is nothing to say yet.
 */
export function waitLine(wait: Wait, say: (key: string, vars?: Record<string, string | number>) => string) {
  const usual = wait.leftSeconds === undefined ? usualText(wait.usual, say) : leftText(wait.leftSeconds, say);
  const minutes = Math.floor(wait.elapsedSeconds / 60);
  const elapsed =
    minutes >= 1 ? say("wait-elapsed", { duration: say("wait-minutes", { n: minutes }) }) : undefined;
  const parts = [usual, elapsed].filter((p): p is string => p !== undefined);
  return parts.length > 0 ? `⏱ ${parts.join(" ")}` : undefined;
}

/** About how long is left, in whole minutes (so that it changes at most once a minute); past the estimate, that it is late. */
function leftText(
  seconds: number,
  say: (key: string, vars?: Record<string, string | number>) => string,
): string {
  if (seconds <= 0) return say("wait-left-over");
  if (seconds < 60) return say("wait-left-under-minute");
  return say("wait-left", { duration: say("wait-minutes", { n: Math.round(seconds / 60) }) });
}

function usualText(
  usual: UsualDuration | undefined,
  say: (key: string, vars?: Record<string, string | number>) => string,
): string | undefined {
  if (!usual) return undefined;
  if (usual.source === "document")
    return say("wait-usual-range", { from: durationText(usual.fromSeconds, say) });
  return say("wait-usual", { duration: durationText(usual.seconds, say) });
}

/** A waiting state's text with its wait line under it, when there is one. */
const withWait = (text: string, line: string | undefined): string => (line ? `${text}\n${line}` : text);

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

/** The queued status as the user first sees it: with their place when the queue is long, and how long such a request usually takes. */
export function queuedText(t: Translate, waitingAhead: number, usual?: UsualDuration): string {
  const text = t("gen-queued");
  const queued =
    waitingAhead < longQueue ? text : `${text}\n${t("cv-queue-position", { position: waitingAhead + 1 })}`;
  return withWait(queued, waitLine({ usual, elapsedSeconds: 0 }, t));
}

/** The states in which the user waits for the service: their status says how long it usually takes. */
const waiting: ReadonlySet<GenerationState> = new Set(["queued", "submitting", "pending"]);

/** What the status says of a generation in `g`'s state; `wait`, for a waiting one, adds its wait line. */
export function statusView(g: Generation, t: TranslateFor, wait?: Wait): StatusView {
  const view = statusTable[g.state](g, t);
  if (!wait || !waiting.has(g.state)) return view;
  return {
    text: withWait(
      view.text,
      waitLine(wait, (key, vars) => t(g.language, key, vars)),
    ),
  };
}

/** Who reads a generation's messages: its chat's audience; a request confirmed in inline mode is a group's. */
export function audienceOfGeneration(g: Pick<Generation, "chatId" | "inlineMessageId">) {
  return g.inlineMessageId ? "group" : audienceOfChatId(g.chatId);
}

/** What showStatus reads and records of generations; `waitOf` adds the wait line to a waiting status. */
export type StatusRecords = Pick<DeliveryRecords, "setStatusShown"> & Partial<Pick<UsualDurations, "waitOf">>;

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
  generations: StatusRecords,
  g: Generation,
  words: TranslateFor,
  options: ShowOptions = {},
): Promise<void> {
  // the status is read by whoever is in its chat: in a group or inline mode, nothing of the account
  const t = forAudienceFor(audienceOfGeneration(g), words);
  const wait = waiting.has(g.state) ? await generations.waitOf?.(g) : undefined;
  // confirmed in inline mode: the placed message is the status message
  if (g.inlineMessageId)
    return showInlineStatus(api, generations, { ...g, inlineMessageId: g.inlineMessageId }, t, wait);
  if (g.chatId === null) return;
  const { text } = statusView(g, t, wait);
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
  generations: StatusRecords,
  g: Generation & { inlineMessageId: string },
  t: TranslateFor,
  wait: Wait | undefined,
): Promise<void> {
  if (g.state === "delivered") return;
  const text =
    g.error?.reason === "undeliverable"
      ? t(g.language, "inline-undeliverable", { price: g.charged ?? 0 })
      : statusView(g, t, wait).text;
  if (g.statusShown === text) return;
  await editInlineText(api, g.inlineMessageId, text);
  await generations.setStatusShown(g.id, text);
}
