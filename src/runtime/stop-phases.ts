import type { Logger } from "../platform/lib/logger";

/**
 * Shutdown runs in phases, whatever order things were started in: first stop
 * taking updates (polling first, so the server's wait for updates in flight is
 * not fed new ones), then webhooks and other requests, then let the workers
 * finish (bounded), then close the connections they used.
 */
export const phase = {
  /** polling and the recovery of unfinished updates: no new update is taken */
  updates: 0,
  /** the HTTP server: no new request, the ones in flight answered */
  intake: 1,
  reconciler: 2,
  workers: 3,
  services: 4,
  connections: 5,
  database: 6,
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
