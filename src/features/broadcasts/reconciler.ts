import type { Logger } from "../../platform/lib/logger";
import type { BroadcastQueue } from "./jobs";
import type { BroadcastStore } from "./store";

/**
 * Every broadcast still sending gets its tick back (one already queued keeps
 * its job), so one cut off by a crash or a Redis flush resumes where its rows stand.
 */
export async function resumeBroadcasts(
  store: Pick<BroadcastStore, "unfinished">,
  queue: Pick<BroadcastQueue, "tick">,
  logger: Logger,
): Promise<number> {
  const rows = await store.unfinished();
  for (const b of rows) await queue.tick(b.id);
  if (rows.length > 0) logger.info({ count: rows.length }, "reconciler resumed unfinished broadcasts");
  return rows.length;
}
