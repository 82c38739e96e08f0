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

export interface DeliverDeps extends DeliveryDeps {
  api: Api;
  generations: Generations;
  logger: Logger;
  t: Translate;
  markBlocked(userId: number): Promise<void>;
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

export async function deliverGeneration(id: string, deps: DeliverDeps): Promise<DeliverOutcome> {
  const { generations, api, t } = deps;
  const g = await generations.get(id);
  if (!g) return { kind: "nothing-to-do" };
  let attempt: number | undefined;
  try {
    if (endedBadly.includes(g.state)) {
      if (g.notifiedAt) return { kind: "nothing-to-do" };
      await showStatus(api, generations, g, failureText(g, t));
      await generations.markNotified(id);
      return { kind: "notified" };
    }
    if (g.state !== "completed" && g.state !== "delivering") return { kind: "nothing-to-do" };
    // at least once: a crash between send and `delivered` sends again on the next attempt
    const delivering = await generations.startDelivery(id);
    if (!delivering) return { kind: "nothing-to-do" };
    attempt = delivering.deliveryAttempts;
    await generations.recordDelivery(id, attempt, { state: "sending" });
    const delivered = await deliverOutputs(delivering, deps);
    await generations.recordDelivery(id, attempt, { state: "sent", messageIds: delivered.messageIds });
    const done = await generations.delivered(id, delivered.messageIds, delivered.fileIds);
    if (done) {
      const text = t(g.language, g.late ? "gen-done-late" : "gen-done", { cost: g.charged ?? 0 });
      await showStatus(api, generations, done, text, resultKeyboard(done, t)).catch((err: unknown) =>
        deps.logger.warn({ err, generationId: id }, "status message not updated"),
      );
    }
    return { kind: "delivered", delivered };
  } catch (err) {
    if (attempt !== undefined) {
      await generations.recordDelivery(id, attempt, { state: "failed", error: (err as Error).message });
    }
    const reason = unreachable(err);
    if (!reason) throw err;
    deps.logger.warn({ generationId: id, reason }, "chat unreachable: result kept for /history");
    if (err instanceof GrammyError && err.error_code === 403) await deps.markBlocked(g.userId);
    if (endedBadly.includes(g.state)) await generations.markNotified(id);
    else await generations.delivered(id, [], []);
    return { kind: "unreachable", reason };
  }
}
