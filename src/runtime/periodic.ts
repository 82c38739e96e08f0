import type { Logger } from "../lib/logger";
import { phase, type StopPhases } from "./stop-phases";

/**
 * Runs `task` every `realMs`, never two at once; a failure is logged and the
 * next round tries again. At shutdown the timer stops and a round in progress
 * is awaited.
 */
export function every(
  what: string,
  realMs: number,
  task: () => Promise<void>,
  deps: { logger: Logger; stops: StopPhases },
): void {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= task()
      .catch((err: unknown) => deps.logger.warn({ err }, `${what} failed`))
      .finally(() => {
        running = undefined;
      });
  }, realMs);
  timer.unref();
  deps.stops.onStop(phase.reconciler, async () => {
    clearInterval(timer);
    await running;
  });
}
