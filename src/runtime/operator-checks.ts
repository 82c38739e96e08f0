import type { Services } from "./services";
import type { RuntimePolicy, RuntimeTiming } from "./settings";
import { phase, type StopPhases } from "./stop-phases";

/**
 * The worker's periodic look on the operator's behalf: the whole ledger
 * audited, and each queue's backlog against its limit; what is wrong reaches
 * the admins (rate-limited per kind).
 */
export function startOperatorChecks(
  s: Services,
  settings: { timing: RuntimeTiming; policy: RuntimePolicy },
  stops: StopPhases,
) {
  let running: Promise<void> | undefined;
  const check = async () => {
    const violations = await s.ledger.audit();
    if (violations.length > 0) {
      s.logger.error({ violations: violations.slice(0, 20) }, "ledger audit found violations");
      await s.alert("audit", { count: violations.length });
    }
    for (const queue of s.queues.all) {
      const waiting = await queue.getWaitingCount();
      if (waiting > settings.policy.backlogLimit)
        await s.alert("backlog", { queue: queue.name, waiting, limit: settings.policy.backlogLimit });
    }
  };
  const timer = setInterval(() => {
    running ??= check()
      .catch((err: unknown) => s.logger.warn({ err }, "operator checks failed"))
      .finally(() => {
        running = undefined;
      });
  }, s.clock.toReal(settings.timing.operatorChecksEveryMs));
  timer.unref();
  stops.onStop(phase.reconciler, async () => {
    clearInterval(timer);
    await running;
  });
}
