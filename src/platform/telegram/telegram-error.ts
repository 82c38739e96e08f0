import { GrammyError, HttpError } from "grammy";
import type { Logger } from "../lib/logger";
import { messageOf } from "../lib/message-of";

/**
 * What an error from Telegram means for the bot, judged in this one place.
 * Telegram publishes few codes of its own; the description is the contract, so
 * each pattern below is written once, from descriptions the Bot API really sends.
 */
export type TelegramFailure =
  /** 429: wait `retryAfter` seconds before anything else is sent */
  | { kind: "flood"; retryAfter: number }
  /** the edit would change nothing: what the user sees is already right */
  | { kind: "not-modified" }
  /** the message to edit, delete or reply to is gone or can no longer be edited */
  | { kind: "message-gone" }
  /** the user blocked the bot or deleted their account: stop writing to them */
  | { kind: "blocked" }
  /** the chat cannot be written to (unknown, bot removed, no rights) */
  | { kind: "chat-unreachable" }
  /** a group became a supergroup: the chat lives on under a new id */
  | { kind: "chat-migrated"; chatId: number }
  /** the forum topic was closed or deleted: answer in the chat itself */
  | { kind: "topic-closed" }
  /** a callback query answered too late (the bot was down): nothing to do */
  | { kind: "query-expired" }
  /** the token is wrong or another instance polls: an operator must act */
  | { kind: "operator"; reason: "unauthorized" | "conflict" }
  /** Telegram refuses this request as it is: resending it cannot help */
  | { kind: "rejected" }
  /** network trouble or a Telegram-side error: the same request may succeed later */
  | { kind: "transient" };

export type TelegramFailureKind = TelegramFailure["kind"];

const notModified = /message is not modified/i;
const messageGone =
  /message to (edit|delete|copy|forward|be replied) not found|message can't be (edited|deleted)|MESSAGE_ID_INVALID/i;
const blocked = /bot was blocked by the user|user is deactivated|bot can't initiate conversation/i;
const chatUnreachable =
  /chat not found|user not found|bot was kicked|bot is not a member|have no rights|not enough rights|need administrator rights|CHAT_WRITE_FORBIDDEN|CHAT_RESTRICTED|group chat was deleted|PEER_ID_INVALID|bot can't send messages to bots/i;
const topicClosed = /message thread not found|TOPIC_(CLOSED|DELETED)/i;
const queryExpired = /query is too old|query ID is invalid|QUERY_ID_INVALID/i;

interface ErrorAnswer {
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** Classifies a failed Bot API answer (a GrammyError, or the raw `ok: false` body). */
export function classifyTelegramAnswer(answer: ErrorAnswer): TelegramFailure {
  const { error_code: code, description, parameters } = answer;
  if (code === 429) return { kind: "flood", retryAfter: Math.max(1, parameters?.retry_after ?? 1) };
  // a malformed token answers 404 rather than 401
  if (code === 401 || code === 404) return { kind: "operator", reason: "unauthorized" };
  if (code === 409) return { kind: "operator", reason: "conflict" };
  if (code >= 500) return { kind: "transient" };
  if (parameters?.migrate_to_chat_id !== undefined) {
    return { kind: "chat-migrated", chatId: parameters.migrate_to_chat_id };
  }
  if (notModified.test(description)) return { kind: "not-modified" };
  if (topicClosed.test(description)) return { kind: "topic-closed" };
  if (messageGone.test(description)) return { kind: "message-gone" };
  if (queryExpired.test(description)) return { kind: "query-expired" };
  if (blocked.test(description)) return { kind: "blocked" };
  if (code === 403 || chatUnreachable.test(description)) return { kind: "chat-unreachable" };
  return { kind: "rejected" };
}

/**
 * Classifies anything thrown by a Bot API call; `null` when it did not come
 * from Telegram or the way to it (a bug of ours is not Telegram's failure).
 */
export function classifyTelegramError(err: unknown): TelegramFailure | null {
  if (err instanceof GrammyError) return classifyTelegramAnswer(err);
  if (err instanceof HttpError) return { kind: "transient" };
  return null;
}

/** True when `err` came from Telegram and means one of `kinds`. */
export function isTelegramFailure(err: unknown, ...kinds: TelegramFailureKind[]): boolean {
  const failure = classifyTelegramError(err);
  return failure !== null && kinds.includes(failure.kind);
}

/**
 * A progress message could not be shown: Telegram's refusal (a flood wait, a
 * deleted message) is routine and said in one line; anything else is ours and
 * is warned about with its stack.
 */
export function logNotShown(
  logger: Pick<Logger, "info" | "warn">,
  err: unknown,
  fields: Record<string, unknown>,
  message: string,
): void {
  if (classifyTelegramError(err)) logger.info({ ...fields, reason: messageOf(err) }, message);
  else logger.warn({ ...fields, err }, message);
}
