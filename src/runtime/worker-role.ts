import { copyJobHandler, resumeBroadcasts, tickJobHandler } from "../broadcasts";
import { cutSound, joinSound } from "../ffmpeg/cut-and-join";
import { findSilences } from "../ffmpeg/silences";
import { deliverJobHandler } from "../generations/deliver/deliver-step";
import { localServerLimits, telegramLimits } from "../generations/deliver/send-outputs";
import { reconcile } from "../generations/reconciler";
import { showStatus } from "../generations/status";
import { dubSourcePreparer } from "../generations/submit/dub-source";
import { inputLinks } from "../generations/submit/input-links";
import { submitJobHandler } from "../generations/submit/submit-step";
import { partsJoiner } from "../generations/sync/join-parts";
import { syncJobHandler } from "../generations/sync/sync-step";
import { pollIntervalMs } from "../media/catalog";
import { downloadLink, linkDownloadOptions } from "../media/link-download";
import type { LinkProbeOptions } from "../media/link-duration";
import { measureMediaFile } from "../media/measure-file";
import { paymentReconciler } from "../payments";
import { startWorkers, type WorkerSet } from "../queue/workers";
import { partPath } from "../storage/stored-file";
import { saveTelegramFile } from "../telegram/telegram-files";
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
  // ffmpeg cuts a long dub into parts and joins the dubbed parts (Debian's package; the Dockerfile installs it)
  const ffmpeg = "ffmpeg";
  const sourceMaxBytes = settings.linkProbe?.download?.maxBytes ?? config.dub.sourceMaxBytes;
  const telegramFiles = {
    api,
    token: config.telegram.token ?? "",
    apiRoot: config.telegram.apiRoot,
    localFiles: config.telegram.localFiles,
  };
  const markBlocked = async (userId: number) => {
    await s.users.markBlocked(userId);
  };
  const saveUserFile = (fileId: string, destination: string) =>
    saveTelegramFile(telegramFiles, fileId, destination, {
      maxBytes: sourceMaxBytes,
      timeoutMs: policy.sourceDownloadMs,
    });
  const inputs = inputLinks({
    store: s.store,
    proxyLink: s.telegramFileUrl,
    keptLink: s.keptInputUrl,
    telegramFile: saveUserFile,
    linkSeconds: policy.inputLinkSeconds,
  });
  const submit = submitJobHandler(
    {
      generations,
      media: s.media,
      clock,
      logger,
      metadataFor: s.metadataFor,
      inputUrl: inputs.forInput,
      prepareDub: dubSourcePreparer({
        store: s.store,
        prices: s.prices,
        download: (link, destination) =>
          downloadLink(link, destination, {
            logger,
            maxBytes: sourceMaxBytes,
            ...linkDownloadOptions(settings.linkProbe),
          }),
        telegramFile: saveUserFile,
        maxBytes: sourceMaxBytes,
        maxMinutes: config.dub.maxMinutes,
        measure: measureMediaFile,
        findSilences: (path) => findSilences(ffmpeg, path),
        cutSound: (path, cuts, dir) => cutSound(ffmpeg, path, cuts, dir),
        inputUrl: inputs.forKept,
        logger,
      }),
      limits: {
        adoptionGraceMs: timing.adoptionGraceMs,
        maxSubmissions: policy.maxSubmissions,
        partsAtOnce: config.dub.partsAtOnce,
      },
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
    onWaiting: async (gid) => {
      const g = await generations.get(gid);
      if (g?.state === "pending") await showStatus(api, generations, g, t);
    },
    parts: {
      generations,
      media: s.media,
      clock,
      logger,
      metadataFor: s.metadataFor,
      // the service downloads a part within the hour; a day leaves room for a retry
      partUrl: (gid, index) => inputs.forFile(partPath(gid, index), 24 * 3600, (p) => s.outputUrl(p, 1)),
      join: partsJoiner({
        store: s.store,
        hasPicture: async (path) => (await measureMediaFile(path))?.hasVideo === true,
        joinSound: (parts, output, picture) => joinSound(ffmpeg, parts, output, picture),
        outputUrl: (path) => s.outputUrl(path, config.mediaRetentionDays),
      }),
      queues: gq,
      onProgress: (g) => showStatus(api, generations, g, t),
      limits: { partsAtOnce: config.dub.partsAtOnce, adoptionGraceMs: timing.adoptionGraceMs },
    },
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
    // a local Bot API server takes uploads up to 2,000 MB: results up to that go as files, not links
    limits: policy.telegramLimits ?? (config.telegram.localFiles ? localServerLimits : telegramLimits),
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
