import { joinSound } from "../../../platform/ffmpeg/cut-and-join";
import { measureMediaFile } from "../../../platform/links/measure-file";
import { partPath } from "../../../platform/storage/stored-file";
import type { Stage } from "../stage";
import { partsJoiner } from "./join-parts";
import { syncJob, syncJobHandler } from "./sync-step";

/** Follows a task on the service (polls, webhook hints; a dub in parts part by part, then joined). */
export const syncStage: Stage = {
  name: "sync",
  queue: syncJob.queue,
  jobs: (deps, tools) => {
    const { config, generations, timing } = deps;
    const common = { generations, media: deps.media, clock: deps.clock, logger: deps.logger };
    const sync = syncJobHandler({
      ...common,
      hints: deps.hints,
      maxPollIntervalMs: timing.maxPollIntervalMs,
      queues: deps.generationQueues,
      observeCompletionLag: (seconds) => deps.metrics.webhookLag.observe(seconds),
      onWaiting: async (gid) => {
        const g = await generations.get(gid);
        if (g?.state === "pending") await tools.showStatus(g);
      },
      parts: {
        ...common,
        metadataFor: deps.metadataFor,
        // the service downloads a part within the hour; a day leaves room for a retry
        partUrl: (gid, index) =>
          tools.inputs.forFile(partPath(gid, index), 24 * 3600, (p) => deps.outputUrl(p, 1)),
        join: partsJoiner({
          store: deps.store,
          hasPicture: async (path) => (await measureMediaFile(path))?.hasVideo === true,
          joinSound: (parts, output, picture) => joinSound(tools.ffmpeg, parts, output, picture),
          outputUrl: (path) => deps.outputUrl(path, config.mediaRetentionDays),
        }),
        queues: deps.generationQueues,
        onProgress: tools.showStatus,
        limits: { partsAtOnce: config.dub.partsAtOnce, adoptionGraceMs: timing.adoptionGraceMs },
      },
    });
    return [sync];
  },
};
