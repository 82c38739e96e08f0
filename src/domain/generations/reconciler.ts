import type { Logger } from "../../platform/lib/logger";
import type { Generations } from "./service";
import type { GenerationQueues } from "./types";

/**
 * Postgres is the truth and Redis only carries work: every generation not at
 * rest gets its job back (a job id that already exists is left as it is).
 * Runs on start and periodically, so a flushed Redis or a killed worker loses nothing.
 */
export async function reconcile(
  generations: Generations,
  queues: GenerationQueues,
  logger: Logger,
): Promise<number> {
  const rows = await generations.unfinished();
  for (const row of rows) {
    switch (row.state) {
      case "queued":
      case "submitting":
        await queues.submit(row.id);
        break;
      case "pending":
        await queues.sync(row.id);
        break;
      default:
        await queues.deliver(row.id);
    }
  }
  if (rows.length > 0) logger.info({ count: rows.length }, "reconciler re-enqueued unfinished generations");
  return rows.length;
}
