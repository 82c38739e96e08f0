import type { Logger } from "../platform/lib/logger";
import type { MediaStore } from "../platform/storage/stored-file";
import type { Readiness } from "./readiness";
import { phase, type StopPhases } from "./stop-phases";

const everyMs = 30_000;

/**
 * A bucket store is a server of its own: readiness says whether it answers
 * (a lookup of a key that is never written), looked at now and every 30 s.
 * A local store is this host's disk and needs no such look.
 */
export function watchMediaStore(
  store: Pick<MediaStore, "kind" | "existing">,
  readiness: Readiness,
  stops: StopPhases,
  logger: Pick<Logger, "warn">,
): Promise<void> {
  if (store.kind !== "bucket") return Promise.resolve();
  let wasOk = true;
  const look = async () => {
    try {
      await store.existing(".readiness-probe");
      readiness.set("media store", true, "bucket answers");
      wasOk = true;
    } catch (err) {
      readiness.set("media store", false, "bucket unreachable");
      if (wasOk) logger.warn({ err: (err as Error).name }, "media store: the bucket does not answer");
      wasOk = false;
    }
  };
  const timer = setInterval(() => void look(), everyMs);
  timer.unref();
  stops.onStop(phase.connections, async () => clearInterval(timer));
  return look();
}
