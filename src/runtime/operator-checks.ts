import { removeExpiredMedia } from "../platform/storage/media-retention";
import { every } from "./periodic";
import type { Services } from "./services";
import type { RuntimePolicy, RuntimeTiming } from "./settings";
import type { StopPhases } from "./stop-phases";

/**
 * The worker's periodic look on the operator's behalf: the whole ledger
 * audited (its result kept for every process's /metrics), and each queue's
 * backlog against its limit; what is wrong reaches the admins (rate-limited per kind).
 */
export function startOperatorChecks(
  s: Services,
  settings: { timing: RuntimeTiming; policy: RuntimePolicy },
  stops: StopPhases,
) {
  const check = async () => {
    const violations = await s.ledger.audit();
    await s.audits.save({ at: Date.now(), violations: violations.length });
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
  every("operator checks", s.clock.toReal(settings.timing.operatorChecksEveryMs), check, {
    logger: s.logger,
    stops,
    rounds: s.rounds,
  });
}

/** Our copies of results, deleted once older than MEDIA_RETENTION_DAYS (their links expire with them). */
export function startMediaRetention(s: Services, timing: RuntimeTiming, stops: StopPhases) {
  const sweep = async () => {
    const removed = await removeExpiredMedia({
      store: s.store,
      restingSince: s.generations.restingSince,
      now: s.now,
      retentionDays: s.config.mediaRetentionDays,
    });
    if (removed > 0) s.logger.info({ removed }, "stored results past their retention deleted");
  };
  every("media retention", s.clock.toReal(timing.mediaRetentionEveryMs), sweep, {
    logger: s.logger,
    stops,
    rounds: s.rounds,
  });
}
