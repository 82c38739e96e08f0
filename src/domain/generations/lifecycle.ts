import type { Logger } from "../../platform/lib/logger";
import type { Metrics } from "../../platform/metrics/metrics";
import type { Generation } from "./types";

/** The steps of a generation an operator follows, each told once when its transition commits. */
export type LifecycleEvent =
  | { step: "created"; g: Generation }
  | { step: "submitted"; g: Generation }
  | { step: "completed"; g: Generation; charged: number; late: boolean }
  | { step: "delivered"; g: Generation }
  | { step: "ended"; g: Generation; released: number }
  | { step: "refunded"; g: Generation; refunded: number };

export type LifecycleObserver = (event: LifecycleEvent) => void;

const modelOf = (g: Generation) => (typeof g.params.model === "string" ? g.params.model : "default");

/**
 * One info line per step (with the generation id, user and task id, so
 * "where is my video?" is a grep), and the business metrics: credits moved,
 * the service's credits, generations by operation, model and outcome, time from
 * Confirm to the chat.
 */
export function lifecycleReporter(
  logger: Logger,
  metrics?: Metrics,
  alert?: (kind: "undeliverable", vars: Record<string, string>) => Promise<void>,
): LifecycleObserver {
  return (event) => {
    const { g } = event;
    const who = {
      generationId: g.id,
      userId: g.userId,
      taskId: g.taskId ?? undefined,
      operation: g.operation,
    };
    const count = (outcome: string) =>
      metrics?.generationOutcomes.inc({ operation: g.operation, model: modelOf(g), outcome });
    switch (event.step) {
      case "created":
        logger.info({ ...who, price: g.price }, "generation created: credits held");
        return;
      case "submitted":
        logger.info(who, "generation submitted to the service");
        return;
      case "completed": {
        metrics?.credits.inc({ movement: "charged" }, event.charged);
        // what the service took for it, late or not: our cost beside what the user paid
        const cost = g.serviceCredits ?? 0;
        if (cost > 0) metrics?.serviceCredits.inc({ kind: "task" }, cost);
        logger.info({ ...who, charged: event.charged, late: event.late }, "generation completed and charged");
        return;
      }
      case "delivered": {
        const seconds = (Date.now() - g.createdAt.getTime()) / 1000;
        metrics?.confirmToDelivered.observe({ operation: g.operation }, seconds);
        count("delivered");
        logger.info({ ...who, seconds: Math.round(seconds) }, "generation delivered");
        return;
      }
      case "ended":
        metrics?.credits.inc({ movement: "released" }, event.released);
        // a dub in parts that failed: the parts the service dubbed were billed all the same
        if (g.partsTotal && (g.serviceCredits ?? 0) > 0)
          metrics?.serviceCredits.inc({ kind: "task" }, g.serviceCredits ?? 0);
        count(g.state);
        logger.info(
          { ...who, state: g.state, reason: g.error?.reason, released: event.released },
          "generation ended without a result: credits released",
        );
        return;
      case "refunded":
        metrics?.credits.inc({ movement: "refunded" }, event.refunded);
        count("undeliverable");
        logger.info({ ...who, refunded: event.refunded }, "result undeliverable: charge refunded");
        void alert?.("undeliverable", { generation: g.id, why: String(g.error?.message ?? "") }).catch(
          (err: unknown) => logger.warn({ err }, "alert not sent"),
        );
        return;
    }
  };
}
