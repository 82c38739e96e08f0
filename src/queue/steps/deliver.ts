import { type Api, GrammyError } from "grammy";
import { showStatus } from "../../delivery/status-message";
import {
  type Delivered,
  type DeliveryDeps,
  deliverOutputs,
  resultKeyboard,
  type Translate,
} from "../../delivery/telegram-delivery";
import { endedBadly, type Generation, type Generations } from "../../generations/service";
import type { Logger } from "../../lib/logger";
import { DownloadError } from "../../storage/media-store";

export interface DeliverDeps extends DeliveryDeps {
  api: Api;
  generations: Generations;
  logger: Logger;
  t: Translate;
  markBlocked(userId: number): Promise<void>;
  /** sends of one result before we refund it and say so */
  maxDeliveryAttempts: number;
}

export type DeliverOutcome =
  | { kind: "nothing-to-do" }
  | { kind: "notified" }
  | { kind: "delivered"; delivered: Delivered }
  | { kind: "unreachable"; reason: string };

/** The user-facing reason of a generation that ended without a result. */
export function failureText(g: Generation, t: Translate): string {
  const reason = typeof g.error?.reason === "string" ? g.error.reason : "";
  const vars = { price: g.price };
  if (g.state === "rejected")
    return t(g.language, "gen-rejected", { reason: t(g.language, "reason-invalid-request") });
  if (g.state === "expired") return t(g.language, "gen-expired", vars);
  if (reason === "service_unavailable") return t(g.language, "gen-failed-unavailable", vars);
  if (reason === "undeliverable") return t(g.language, "gen-undeliverable", { price: g.charged ?? 0 });
  return t(g.language, "gen-failed", vars);
}

function unreachable(err: unknown): string | null {
  if (!(err instanceof GrammyError)) return null;
  if (err.error_code === 403) return err.description;
  if (
    err.error_code === 400 &&
    /chat not found|user not found|have no rights|not enough rights/i.test(err.description)
  ) {
    return err.description;
  }
  return null;
}

/** Telegram will never accept this send as it is: retrying cannot help. */
function permanent(err: unknown): string | null {
  if (err instanceof DownloadError && !err.retryable) return err.message;
  if (err instanceof GrammyError && err.error_code === 400) return err.description;
  return null;
}

const topicGone = /message thread not found|TOPIC_(CLOSED|DELETED)/i;

export async function deliverGeneration(id: string, deps: DeliverDeps): Promise<DeliverOutcome> {
  const { generations, api, t } = deps;
  const g = await generations.get(id);
  if (!g) return { kind: "nothing-to-do" };
  if (endedBadly.includes(g.state)) return notify(g, deps);
  if (g.state !== "completed" && g.state !== "delivering") return { kind: "nothing-to-do" };
  if (g.deliveryAttempts >= deps.maxDeliveryAttempts) {
    return undeliverable(g, `gave up after ${g.deliveryAttempts} attempts`, deps);
  }
  // at least once: a crash between send and `delivered` sends again on the next attempt
  const delivering = await generations.startDelivery(id);
  if (!delivering) return { kind: "nothing-to-do" };
  const attempt = delivering.deliveryAttempts;
  await generations.recordDelivery(id, attempt, { state: "sending" });
  let delivered: Delivered;
  try {
    delivered = await deliverOutputs(delivering, deps);
  } catch (err) {
    await generations.recordDelivery(id, attempt, { state: "failed", error: (err as Error).message });
    const reason = unreachable(err);
    if (reason) {
      deps.logger.warn({ generationId: id, reason }, "chat unreachable: result kept for /history");
      if (err instanceof GrammyError && err.error_code === 403) await deps.markBlocked(g.userId);
      await generations.delivered(id, [], []);
      return { kind: "unreachable", reason };
    }
    if (err instanceof GrammyError && topicGone.test(err.description)) {
      // the forum topic is gone: the next attempt answers in the chat itself
      await generations.forgetThread(id);
      throw err;
    }
    const hopeless = permanent(err);
    if (hopeless) return undeliverable(delivering, hopeless, deps);
    throw err;
  }
  await generations.recordDelivery(id, attempt, { state: "sent", messageIds: delivered.messageIds });
  const done = await generations.delivered(id, delivered.messageIds, delivered.fileIds);
  if (done) {
    const text = t(g.language, g.late ? "gen-done-late" : "gen-done", { cost: g.charged ?? 0 });
    await showStatus(api, generations, done, text, resultKeyboard(done, t)).catch((err: unknown) =>
      deps.logger.warn({ err, generationId: id }, "status message not updated"),
    );
  }
  return { kind: "delivered", delivered };
}

/** The result cannot reach the user: what they paid goes back, and they are told. */
async function undeliverable(g: Generation, why: string, deps: DeliverDeps): Promise<DeliverOutcome> {
  deps.logger.error({ generationId: g.id, why }, "result undeliverable: refunding");
  const failed = await deps.generations.undeliverable(g.id, why);
  if (!failed) return { kind: "nothing-to-do" };
  return notify(failed, deps);
}

async function notify(g: Generation, deps: DeliverDeps): Promise<DeliverOutcome> {
  if (g.notifiedAt) return { kind: "nothing-to-do" };
  try {
    await showStatus(deps.api, deps.generations, g, failureText(g, deps.t));
  } catch (err) {
    const reason = unreachable(err) ?? permanent(err);
    if (!reason) throw err;
    // a notice Telegram will never take is given up, not retried forever
    deps.logger.warn({ generationId: g.id, reason }, "failure notice not deliverable");
    if (err instanceof GrammyError && err.error_code === 403) await deps.markBlocked(g.userId);
  }
  await deps.generations.markNotified(g.id);
  return { kind: "notified" };
}
