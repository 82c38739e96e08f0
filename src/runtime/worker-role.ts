import { reconcile } from "../domain/generations/reconciler";
import { stageTools } from "../domain/generations/stage";
import { stages } from "../domain/generations/stages";
import type { LinkProbeOptions } from "../platform/links/link-duration";
import { startWorkers, type WorkerSet } from "../platform/queue/workers";
import { featureWork } from "./features";
import { startMediaRetention, startOperatorChecks } from "./operator-checks";
import { every } from "./periodic";
import type { Services } from "./services";
import type { RuntimePolicy, RuntimeTiming } from "./settings";
import { phase, type StopPhases } from "./stop-phases";

/** The worker role: the jobs of the generations' stages and of the features, and the rounds. */
export function startWorkerRole(
  s: Services,
  settings: { timing: RuntimeTiming; policy: RuntimePolicy; linkProbe?: LinkProbeOptions | undefined },
  stops: StopPhases,
): WorkerSet {
  const { config, clock, logger, generations, generationQueues: gq } = s;
  const { timing, policy } = settings;
  if (!s.api || !s.telegramLink) throw new Error("the worker role needs BOT_TOKEN to deliver results");
  const api = s.api;
  const link = s.telegramLink;
  // a delivery waiting for Telegram goes on (to be sent later) when the workers stop
  stops.onStop(phase.reconciler, async () => link.close());
  const deps = {
    ...s,
    api,
    sendApi: s.sendApi ?? api,
    telegramLink: link,
    timing,
    policy,
    linkProbe: settings.linkProbe,
  };
  const tools = stageTools(deps);
  const work = featureWork(deps);
  // every job this role runs: the stages' and the features'
  const jobs = [...stages.flatMap((stage) => stage.jobs(deps, tools)), ...work.jobs];
  // checked at start: a job on a queue no stage declares could never be queued
  for (const job of jobs) s.queues.of(job.queue.name);
  const workers = startWorkers(jobs, {
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
    },
    // a worker started after a crash or a flushed Redis puts the work back at once
    { logger, stops, rounds: s.rounds, atStart: true },
  );
  startOperatorChecks(s, settings, stops);
  startMediaRetention(s, timing, stops);
  for (const round of work.periodic) {
    every(round.name, clock.toReal(round.everyMs), round.run, {
      logger,
      stops,
      rounds: s.rounds,
      atStart: round.atStart ?? false,
    });
  }
  return workers;
}
