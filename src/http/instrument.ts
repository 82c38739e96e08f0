import type { Transformer } from "grammy";
import type { MediaClient } from "../media/client";
import { MediaServiceError } from "../media/errors";
import { classifyTelegramAnswer } from "../telegram/telegram-error";
import type { Metrics } from "./metrics";

/** Counts the service's errors by kind, without changing what callers see. */
export function instrumentMediaClient(client: MediaClient, metrics: Metrics): MediaClient {
  const counted =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (err) {
        metrics.serviceErrors.inc({ kind: err instanceof MediaServiceError ? err.kind : "other" });
        throw err;
      }
    };
  return {
    createImage: counted(client.createImage),
    editImage: counted(client.editImage),
    createVideo: counted(client.createVideo),
    createDubbing: counted(client.createDubbing),
    getTask: counted(client.getTask),
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
