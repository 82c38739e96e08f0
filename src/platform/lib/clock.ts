import { setTimeout as delay } from "node:timers/promises";

/**
 * Time as the code sees it. Production uses the system clock; tests use a
 * scaled clock so a 15-minute deadline passes in a second of real time.
 */
export interface Clock {
  now(): number;
  /** resolves after `ms` of this clock's time (rejects with AbortError on abort) */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** converts this clock's milliseconds into real milliseconds, for timers handed to libraries */
  toReal(ms: number): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(ms, undefined, signal ? { signal } : undefined),
  toReal: (ms) => ms,
};

/**
 * A clock that runs `factor` times faster than real time from `origin` (a real
 * timestamp). Processes given the same factor and origin share one timeline.
 */
export function scaledClock(factor: number, origin = Date.now()): Clock {
  if (!(factor > 0)) throw new Error("clock factor must be positive");
  return {
    now: () => origin + (Date.now() - origin) * factor,
    sleep: (ms, signal) => delay(Math.max(0, ms / factor), undefined, signal ? { signal } : undefined),
    toReal: (ms) => Math.max(0, Math.round(ms / factor)),
  };
}
