import type { Stage } from "../stage";
import { deliverJob, deliverJobHandler } from "./deliver-step";
import { localServerLimits, telegramLimits } from "./send-outputs";

/** Sends a finished generation's results to its chat (or its placed inline message). */
export const deliverStage: Stage = {
  name: "deliver",
  queue: deliverJob.queue,
  jobs: (deps) => {
    const { config, policy } = deps;
    const deliver = deliverJobHandler({
      api: deps.api,
      generations: deps.generations,
      logger: deps.logger,
      t: deps.t,
      store: deps.store,
      outputUrl: deps.outputUrl,
      maxDeliveryAttempts: policy.maxDeliveryAttempts,
      link: deps.telegramLink,
      retentionDays: config.mediaRetentionDays,
      miniAppUrl: config.miniAppUrl,
      markBlocked: async (userId) => {
        await deps.users.markBlocked(userId);
      },
      inlineStorageChatId: config.inlineStorageChatId,
      // a local Bot API server takes uploads up to 2,000 MB: results up to that go as files, not links
      limits: policy.telegramLimits ?? (config.telegram.localFiles ? localServerLimits : telegramLimits),
    });
    return [deliver];
  },
};
