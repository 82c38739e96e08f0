import type { Api } from "grammy";
import type { Feature } from "../../bot/feature";
import type { TranslateFor } from "../../platform/i18n/i18n";
import type { Logger } from "../../platform/lib/logger";
import { type BroadcastFeatureDeps, broadcastFeature } from "./feature";
import { type BroadcastQueue, copyJobHandler, tickJobHandler } from "./jobs";
import { resumeBroadcasts } from "./reconciler";
import type { BroadcastStore } from "./store";

/** Broadcasts: the admins' /broadcast (feature and conversation), the store, the jobs that send and tick, and the reconciler. Code outside this folder imports it from here only. */
export { broadcastQueue } from "./jobs";
export { createBroadcastStore } from "./store";

interface BroadcastsBotDeps extends Pick<BroadcastFeatureDeps, "db" | "logger" | "users"> {
  config: { adminIds: readonly number[] };
  broadcasts: Pick<BroadcastFeatureDeps, "store" | "queue">;
}

interface BroadcastsWorkerDeps {
  config: { telegramSendsPerSecond: number };
  broadcasts: { store: BroadcastStore; queue: BroadcastQueue };
  /** an Api without automatic 429 retries: a 429 pauses every worker's limiter */
  sendApi: Pick<Api, "copyMessage" | "copyMessages" | "editMessageText">;
  t: TranslateFor;
  logger: Logger;
  users: { markBlocked(userId: number): Promise<unknown> };
  timing: { broadcastTickMs: number; broadcastClaimStaleMs: number; reconcileEveryMs: number };
}

/**
 * Its conversation goes before the requests': they answer every other `cv:` press as stale.
 * Its copies and ticks ride in the deliver queue; a round puts back what a crash left.
 */
export const broadcasts: Feature<BroadcastsBotDeps, BroadcastsWorkerDeps> = {
  name: "broadcasts",
  bot: (deps) => [
    {
      phase: "feature",
      composer: broadcastFeature({ ...deps, ...deps.broadcasts, adminIds: deps.config.adminIds }),
    },
  ],
  jobs: (deps) => [
    copyJobHandler({
      store: deps.broadcasts.store,
      api: deps.sendApi,
      logger: deps.logger,
      markBlocked: async (userId) => {
        await deps.users.markBlocked(userId);
      },
    }),
    tickJobHandler({
      store: deps.broadcasts.store,
      queue: deps.broadcasts.queue,
      api: deps.sendApi,
      t: deps.t,
      logger: deps.logger,
      sendsPerSecond: deps.config.telegramSendsPerSecond,
      tickMs: deps.timing.broadcastTickMs,
      claimStaleMs: deps.timing.broadcastClaimStaleMs,
      now: () => Date.now(),
    }),
  ],
  periodic: (deps) => [
    {
      name: "broadcasts",
      everyMs: deps.timing.reconcileEveryMs,
      // a worker started after a crash or a flushed Redis puts the work back at once
      atStart: true,
      run: async () => {
        await resumeBroadcasts(deps.broadcasts.store, deps.broadcasts.queue, deps.logger);
      },
    },
  ],
};
