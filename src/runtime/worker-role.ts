import { copyJobHandler, resumeBroadcasts, tickJobHandler } from "../broadcasts";
import { deliverJobHandler } from "../generations/deliver/deliver-step";
import { reconcile } from "../generations/reconciler";
import { showStatus } from "../generations/status";
import { sourcePinner } from "../generations/submit/pin-source";
import { submitJobHandler } from "../generations/submit/submit-step";
import { syncJobHandler } from "../generations/sync/sync-step";
import { pollIntervalMs } from "../media/catalog";
import { downloadLink, linkDownloadOptions } from "../media/link-download";
import type { LinkProbeOptions } from "../media/link-duration";
import { paymentReconciler } from "../payments";
import { startWorkers, type WorkerSet } from "../queue/workers";
import { startMediaRetention, startOperatorChecks } from "./operator-checks";
import { every } from "./periodic";
import type { Services } from "./services";
import type { RuntimePolicy, RuntimeTiming } from "./settings";
import { phase, type StopPhases } from "./stop-phases";

/** The worker role: the jobs of the generations' stages and of broadcasts, and the reconcilers. */
export function startWorkerRole(
  s: Services,
  settings: { timing: RuntimeTiming; policy: RuntimePolicy; linkProbe?: LinkProbeOptions | undefined },
  stops: StopPhases,
): WorkerSet {
  const { config, clock, logger, generations, generationQueues: gq, t } = s;
  const { timing, policy } = settings;
  if (!s.api) throw new Error("the worker role needs BOT_TOKEN to deliver results");
  const api = s.api;
  const sendApi = s.sendApi ?? api;
  const markBlocked = async (userId: number) => {
    await s.users.markBlocked(userId);
  };
  const submit = submitJobHandler(
    {
      generations,
      media: s.media,
      clock,
      logger,
      metadataFor: s.metadataFor,
      inputUrl: s.inputUrl,
      pinSource: sourcePinner({
        store: s.store,
        prices: s.prices,
        download: (link, destination) =>
          downloadLink(link, destination, { logger, ...linkDownloadOptions(settings.linkProbe) }),
        ...(settings.linkProbe?.download?.maxBytes ? { maxBytes: settings.linkProbe.download.maxBytes } : {}),
        inputUrl: s.keptInputUrl,
        logger,
      }),
      limits: { adoptionGraceMs: timing.adoptionGraceMs, maxSubmissions: policy.maxSubmissions },
      firstPollDelayMs: (g) => pollIntervalMs(g.operation),
      queues: gq,
      onAccepted: (g) => showStatus(api, generations, g, t),
      alertOperator: (problem) => s.alert("service-refused", { problem }),
    },
    timing.operatorPauseMs,
  );
  const sync = syncJobHandler({
    generations,
    media: s.media,
    clock,
    logger,
    hints: s.hints,
    maxPollIntervalMs: timing.maxPollIntervalMs,
    queues: gq,
    observeCompletionLag: (seconds) => s.metrics.webhookLag.observe(seconds),
  });
  const deliver = deliverJobHandler({
    api,
    generations,
    logger,
    t,
    store: s.store,
    outputUrl: s.outputUrl,
    maxDeliveryAttempts: policy.maxDeliveryAttempts,
    retentionDays: config.mediaRetentionDays,
    miniAppUrl: config.miniAppUrl,
    markBlocked,
    inlineStorageChatId: config.inlineStorageChatId,
    ...(policy.telegramLimits ? { limits: policy.telegramLimits } : {}),
  });
  const copy = copyJobHandler({ store: s.broadcasts.store, api: sendApi, logger, markBlocked });
  const tick = tickJobHandler({
    store: s.broadcasts.store,
    queue: s.broadcasts.queue,
    api: sendApi,
    t,
    logger,
    sendsPerSecond: config.telegramSendsPerSecond,
    tickMs: timing.broadcastTickMs,
    claimStaleMs: timing.broadcastClaimStaleMs,
    now: () => Date.now(),
  });
  // every job this role runs; each stage defines its own beside its step
  const workers = startWorkers([submit, sync, deliver, copy, tick], {
    redis: config.redis,
    logger,
    jobLockMs: timing.jobLockMs,
    telegramPerSecond: config.telegramSendsPerSecond,
    concurrency: { deliver: policy.sendConcurrency },
    onOutcome: (queue, outcome) => s.metrics.jobOutcomes.inc({ queue, outcome }),
  });
  stops.onStop(phase.workers, () => workers.drain(timing.drainMs));
  every(
    "reconciler",
    clock.toReal(timing.reconcileEveryMs),
    async () => {
      await reconcile(generations, gq, logger);
      await resumeBroadcasts(s.broadcasts.store, s.broadcasts.queue, logger);
    },
    // a worker started after a crash or a flushed Redis puts the work back at once
    { logger, stops, rounds: s.rounds, atStart: true },
  );
  startOperatorChecks(s, settings, stops);
  startMediaRetention(s, timing, stops);
  const payments = paymentReconciler({
    api,
    payments: s.payments,
    users: s.users,
    t,
    alert: s.alert,
    clock,
    logger,
    sandbox: config.sandbox,
  });
  every(
    "payments reconciler",
    clock.toReal(timing.paymentsReconcileEveryMs),
    async () => {
      await payments.reconcile();
    },
    { logger, stops, rounds: s.rounds },
  );
  return workers;
}
