import { cutSound } from "../../../platform/ffmpeg/cut-and-join";
import { findSilences } from "../../../platform/ffmpeg/silences";
import { downloadLink, linkDownloadOptions } from "../../../platform/links/link-download";
import { measureMediaFile } from "../../../platform/links/measure-file";
import { pollIntervalMs } from "../../../platform/media-service/catalog";
import type { Stage } from "../stage";
import { dubSourcePreparer } from "./dub-source";
import { submitJob, submitJobHandler } from "./submit-step";

/** Sends a generation to the service (a long dub kept, measured and cut into parts first). */
export const submitStage: Stage = {
  name: "submit",
  queue: submitJob.queue,
  jobs: (deps, tools) => {
    const { config, logger, timing, policy } = deps;
    const prepareDub = dubSourcePreparer({
      store: deps.store,
      prices: deps.prices,
      download: (link, destination) =>
        downloadLink(link, destination, {
          logger,
          maxBytes: tools.sourceMaxBytes,
          ...linkDownloadOptions(deps.linkProbe),
        }),
      telegramFile: tools.saveUserFile,
      maxBytes: tools.sourceMaxBytes,
      maxMinutes: config.dub.maxMinutes,
      measure: measureMediaFile,
      findSilences: (path) => findSilences(tools.ffmpeg, path),
      cutSound: (path, cuts, dir) => cutSound(tools.ffmpeg, path, cuts, dir),
      inputUrl: tools.inputs.forKept,
      logger,
    });
    const submit = submitJobHandler(
      {
        generations: deps.generations,
        media: deps.media,
        clock: deps.clock,
        logger,
        metadataFor: deps.metadataFor,
        inputUrl: tools.inputs.forInput,
        prepareDub,
        limits: {
          adoptionGraceMs: timing.adoptionGraceMs,
          maxSubmissions: policy.maxSubmissions,
          partsAtOnce: config.dub.partsAtOnce,
        },
        firstPollDelayMs: (g) => pollIntervalMs(g.operation),
        queues: deps.generationQueues,
        onAccepted: tools.showStatus,
        alertOperator: (problem) => deps.alert("service-refused", { problem }),
      },
      timing.operatorPauseMs,
    );
    return [submit];
  },
};
