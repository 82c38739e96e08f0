import type { Logger } from "../platform/lib/logger";
import type { RoundLeases } from "./round-lease";
import { phase, type StopPhases } from "./stop-phases";

export interface PeriodicDeps {
  logger: Logger;
  stops: StopPhases;
  /** keeps the round to one process at a time across every process of the bot */
  rounds: RoundLeases;
  /** also one round at once (even if another process ran it lately): what a restart must not wait for */
  atStart?: boolean;
}

/**
 * Runs `task` every `realMs`, never two at once in this process nor across
 * processes (see `roundLeases`); a failure is logged and the next round tries
 * again. At shutdown the timer stops and a round in progress is awaited.
 */
export function every(what: string, realMs: number, task: () => Promise<void>, deps: PeriodicDeps): void {
  let running: Promise<void> | undefined;
  const tick = (evenIfRecent: boolean) => {
    running ??= deps.rounds
      .run(what, task, { intervalMs: realMs, evenIfRecent })
      .then(() => undefined)
      .catch((err: unknown) => deps.logger.warn({ err }, `${what} failed`))
      .finally(() => {
        running = undefined;
      });
  };
  if (deps.atStart) tick(true);
  const timer = setInterval(() => tick(false), realMs);
  timer.unref();
  deps.stops.onStop(phase.reconciler, async () => {
    clearInterval(timer);
    await running;
  });
}
