import type { Transformer } from "grammy";
import type { MediaClient } from "../../platform/media-service/client";
import { MediaServiceError } from "../../platform/media-service/errors";
import type { Metrics } from "../../platform/metrics/metrics";
import { classifyTelegramAnswer } from "../../platform/telegram/telegram-error";

/** Counts the service's errors by kind and times each call, without changing what callers see. */
export function instrumentMediaClient(client: MediaClient, metrics: Metrics): MediaClient {
  const counted =
    <A extends unknown[], R>(call: string, run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const timer = metrics.serviceSeconds.startTimer({ call });
      try {
        const result = await run(...args);
        timer({ result: "ok" });
        return result;
      } catch (err) {
        const kind = err instanceof MediaServiceError ? err.kind : "other";
        timer({ result: kind });
        metrics.serviceErrors.inc({ kind });
        throw err;
      }
    };
  return {
    createImage: counted("createImage", client.createImage),
    editImage: counted("editImage", client.editImage),
    createVideo: counted("createVideo", client.createVideo),
    createDubbing: counted("createDubbing", client.createDubbing),
    getTask: counted("getTask", client.getTask),
  };
}

/** Counts Telegram's flood-control answers (429) on any Api it is installed on. */
export function countFloodWaits(metrics: Metrics): Transformer {
  return async (prev, method, payload, signal) => {
    const res = await prev(method, payload, signal);
    if (!res.ok && classifyTelegramAnswer(res).kind === "flood") metrics.telegram429.inc();
    return res;
  };
}
