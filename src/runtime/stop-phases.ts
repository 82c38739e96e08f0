import type { Logger } from "../lib/logger";

/**
 * Shutdown runs in phases, whatever order things were started in: first stop
 * taking updates and webhooks, then let the workers finish (bounded), then close
 * the connections they used.
 */
export const phase = {
  intake: 0,
  reconciler: 1,
  workers: 2,
  services: 3,
  connections: 4,
  database: 5,
} as const;
export type StopPhase = (typeof phase)[keyof typeof phase];

export interface StopPhases {
  onStop(p: StopPhase, stop: () => Promise<unknown>): void;
  stopAll(): Promise<void>;
}

export function createStopPhases(logger: Logger): StopPhases {
  const stops: Array<{ phase: number; stop: () => Promise<unknown> }> = [];
  return {
    onStop: (p, stop) => stops.push({ phase: p, stop }),
    async stopAll() {
      const ordered = stops.splice(0).sort((x, y) => x.phase - y.phase);
      for (const { stop } of ordered)
        await stop().catch((err: unknown) => logger.warn({ err }, "stop failed"));
    },
  };
}
