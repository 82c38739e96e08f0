import { GrammyError } from "grammy";
import type { z } from "zod";
import { forAudienceFor } from "../../../platform/i18n/audience";
import type { TranslateFor } from "../../../platform/i18n/i18n";
import { faultPoint } from "../../../platform/lib/fault-point";
import type { Logger } from "../../../platform/lib/logger";
import { messageOf } from "../../../platform/lib/message-of";
import { type JobHandler, type JobKind, jobHandler, type QueueSpec } from "../../../platform/queue/job";
import { DownloadError } from "../../../platform/storage/stored-file";
import {
  classifyTelegramError,
  isTelegramFailure,
  logNotShown,
  type TelegramFailureKind,
} from "../../../platform/telegram/telegram-error";
import { isTelegramAway, type TelegramLink } from "../../../platform/telegram/telegram-link";
import type { DeliveryRecords } from "../delivery-records";
import type { GenerationReads } from "../reads";
import { endedBadly } from "../states";
import { audienceOfGeneration, type ShowOptions, showStatus } from "../status";
import type { GenerationTransitions } from "../transitions";
import { type Generation, generationJobData } from "../types";
import { deliverInline, type InlineDeliveryDeps } from "./deliver-inline";
import { copyOutputs, type Delivered, deliverOutputs } from "./send-outputs";

export interface DeliverDeps extends InlineDeliveryDeps {
  generations: Pick<GenerationReads, "get"> &
    Pick<GenerationTransitions, "startDelivery" | "finishDelivery" | "refundUndeliverable"> &
    Pick<
      DeliveryRecords,
      "recordDelivery" | "forgetThread" | "markNotified" | "setStatusShown" | "recordUploaded"
    >;
  logger: Logger;
  t: TranslateFor;
  markBlocked(userId: number): Promise<void>;
  /** whether Telegram answers: a send that failed while it is away is waited out, not counted */
  link: Pick<TelegramLink, "answers" | "waitForTelegram">;
  /** sends of one result before we refund it and say so */
  maxDeliveryAttempts: number;
}

export type DeliverOutcome =
  | { kind: "nothing-to-do" }
  | { kind: "notified" }
  | { kind: "delivered"; delivered: Delivered }
  | { kind: "unreachable"; reason: string }
  /** Telegram's flood control: no delivery may be sent for this long */
  | { kind: "flood"; retryAfterSeconds: number }
  /** Telegram away (its getMe unanswered too): sent again once it answers */
  | { kind: "away" };

/** Telegram's description when `err` is one of `kinds` of Telegram failure. */
function telegramReason(err: unknown, ...kinds: TelegramFailureKind[]): string | null {
  return err instanceof GrammyError && isTelegramFailure(err, ...kinds) ? err.description : null;
}

const unreachable = (err: unknown) => telegramReason(err, "blocked", "chat-unreachable");

/** Telegram will never accept this send as it is: retrying cannot help. */
function permanent(err: unknown): string | null {
  if (err instanceof DownloadError && !err.retryable) return err.message;
  return telegramReason(err, "rejected", "message-gone", "chat-migrated");
}

/**
 * One delivery attempt; a Telegram 429 anywhere in it becomes a `flood` outcome.
 * On the `final` attempt a send that still fails is given up: refunded, and the
 * user told, rather than left to a later round.
 */
export async function deliverGeneration(
  id: string,
  deps: DeliverDeps,
  final = false,
): Promise<DeliverOutcome> {
  try {
    return await deliverOnce(id, deps, final);
  } catch (err) {
    const failure = classifyTelegramError(err);
    if (failure?.kind === "flood") return { kind: "flood", retryAfterSeconds: failure.retryAfter };
    if (isTelegramAway(err) && !(await deps.link.answers())) return { kind: "away" };
    throw err;
  }
}

async function deliverOnce(id: string, given: DeliverDeps, final: boolean): Promise<DeliverOutcome> {
  const { generations } = given;
  const g = await generations.get(id);
  if (!g) return { kind: "nothing-to-do" };
  // a result's caption and buttons are read by whoever is in its chat
  const deps = { ...given, t: forAudienceFor(audienceOfGeneration(g), given.t) };
  if (endedBadly.includes(g.state)) return notify(g, deps);
  // a run after a crash between `delivered` and Done: the status says Done, nothing is sent again;
  // a result that never reached its chat (delivered to no message) is not said to be done
  if (g.state === "delivered") {
    if ((g.deliveredMessageIds ?? []).length > 0) await showDone(g, deps);
    return { kind: "nothing-to-do" };
  }
  if (g.state !== "completed" && g.state !== "delivering") return { kind: "nothing-to-do" };
  if (g.deliveryAttempts >= deps.maxDeliveryAttempts) {
    return undeliverable(g, `gave up after ${g.deliveryAttempts} attempts`, deps);
  }
  // our copies of the outputs are made while the attempt is recorded: copying sends nothing
  const copied = g.inlineMessageId ? undefined : copyOutputs(g, deps.store);
  copied?.catch(() => undefined); // its failure is the send's, below
  // at least once: a crash between send and `delivered` sends again on the next attempt
  const delivering = await generations.startDelivery(id);
  if (!delivering) {
    await copied?.catch(() => undefined);
    return { kind: "nothing-to-do" };
  }
  const attempt = delivering.deliveryAttempts;
  await generations.recordDelivery(id, attempt, { state: "sending" });
  faultPoint("deliver:sending");
  let delivered: Delivered;
  const inlineMessageId = delivering.inlineMessageId;
  try {
    delivered = inlineMessageId
      ? await deliverInline({ ...delivering, inlineMessageId }, deps)
      : await deliverOutputs(delivering, deps, copied);
  } catch (err) {
    await generations.recordDelivery(id, attempt, { state: "failed", error: (err as Error).message });
    const reason = unreachable(err);
    // inline mode: the chat to upload to is closed (never started), so nothing can be shown in place
    if (reason && inlineMessageId) return undeliverable(delivering, reason, deps, "warn");
    if (reason) {
      deps.logger.warn({ generationId: id, reason }, "chat unreachable: result kept for /history");
      if (isTelegramFailure(err, "blocked")) await deps.markBlocked(g.userId);
      await generations.finishDelivery(id, [], []);
      return { kind: "unreachable", reason };
    }
    if (isTelegramFailure(err, "topic-closed")) {
      // the forum topic is gone: the next attempt answers in the chat itself
      await generations.forgetThread(id);
      throw err;
    }
    const hopeless = permanent(err);
    if (hopeless) return undeliverable(delivering, hopeless, deps);
    // refused in passing while Telegram answers others, all through the attempts: the user must
    // hear of it; Telegram away is waited out however long (deliverGeneration), the result kept
    if (final && isTelegramAway(err) && (await deps.link.answers()))
      return undeliverable(delivering, messageOf(err), deps, "warn");
    throw err;
  }
  await generations.recordDelivery(id, attempt, { state: "sent", messageIds: delivered.messageIds });
  const done = await generations.finishDelivery(
    id,
    delivered.messageIds,
    delivered.fileIds,
    delivered.fileKinds,
  );
  if (done) await showDone(done, deps);
  return { kind: "delivered", delivered };
}

/**
 * Shows `g`'s status as its state says. One Telegram will never take is logged as
 * `what` (a user who blocked the bot is marked so); a failure in passing is thrown.
 */
async function showOrWarn(
  g: Generation,
  deps: DeliverDeps,
  what: string,
  options: ShowOptions = {},
): Promise<void> {
  try {
    await showStatus(deps.api, deps.generations, g, deps.t, options);
  } catch (err) {
    const reason = unreachable(err) ?? permanent(err);
    if (!reason) throw err;
    deps.logger.warn({ generationId: g.id, reason }, what);
    if (isTelegramFailure(err, "blocked")) await deps.markBlocked(g.userId);
  }
}

/**
 * Done, on the status of a result now in its chat. A failure is only logged:
 * the job does not run again for it, so nothing is resent.
 */
async function showDone(g: Generation, deps: DeliverDeps): Promise<void> {
  await showOrWarn(g, deps, "status message not updated").catch((err: unknown) =>
    logNotShown(deps.logger, err, { generationId: g.id }, "status message not updated"),
  );
}

/** The result cannot reach the user: what they paid goes back, and they are told. */
async function undeliverable(
  g: Generation,
  why: string,
  deps: DeliverDeps,
  level: "error" | "warn" = "error",
): Promise<DeliverOutcome> {
  deps.logger[level]({ generationId: g.id, why }, "result undeliverable: refunding");
  const failed = await deps.generations.refundUndeliverable(g.id, why);
  if (!failed) return { kind: "nothing-to-do" };
  return notify(failed, deps);
}

async function notify(g: Generation, deps: DeliverDeps): Promise<DeliverOutcome> {
  if (g.notifiedAt) return { kind: "nothing-to-do" };
  // a notice Telegram will never take is given up, not retried forever
  await showOrWarn(g, deps, "failure notice not deliverable", { anew: g.error?.reason === "undeliverable" });
  await deps.generations.markNotified(g.id);
  return { kind: "notified" };
}

/** Every send to Telegram (results, and the broadcasts' copies behind them) under one rate. */
export const deliverQueue: QueueSpec = { name: "deliver", concurrency: 4, limiter: "telegram-sends" };

/**
 * The deliver job: one per generation (its id is the job id). It shares the deliver
 * queue, and its limit of Telegram sends, with broadcasts: results carry no priority,
 * so BullMQ takes them before any broadcast job. A result Telegram keeps refusing
 * is refunded and told in under a minute: four attempts, each send in them already
 * tried again (about 8 s of pauses), 2 + 4 + 8 s between them, then the notice
 * (test/domain/generations/deliver-schedule.unit.test.ts adds it up). While Telegram is away (its
 * getMe unanswered too) no attempt is spent: the job waits for it to answer.
 */
export const deliverJob: JobKind<z.infer<typeof generationJobData>> = {
  queue: deliverQueue,
  name: "deliver",
  label: "deliver",
  data: generationJobData,
  policy: { attempts: 4, backoffMs: 2_000 },
};

/** Runs `deliverGeneration`; Telegram's flood control pauses every send of every worker. */
export function deliverJobHandler(deps: DeliverDeps): JobHandler {
  return jobHandler(deliverJob, async ({ gid }, attempt) => {
    const outcome = await deliverGeneration(gid, deps, attempt.final);
    if (outcome.kind === "away") {
      await deps.link.waitForTelegram();
      return { kind: "later", outcome: outcome.kind, realMs: 1_000 };
    }
    if (outcome.kind !== "flood") return { kind: "done", outcome: outcome.kind };
    deps.logger.warn(
      { generationId: gid, retryAfter: outcome.retryAfterSeconds },
      "telegram flood control: pausing sends",
    );
    return { kind: "pause", outcome: outcome.kind, realMs: outcome.retryAfterSeconds * 1000 };
  });
}
