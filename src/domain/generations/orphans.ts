import { orphanTasks } from "../../platform/db/schema";
import type { GenerationsContext } from "./context";

/** Tasks the service ran that no generation can take: recorded with their cost for the operator. */
export function orphanRecords(ctx: Pick<GenerationsContext, "db" | "logger" | "onOrphan">) {
  const { db, logger } = ctx;

  async function recordOrphan(
    taskId: string,
    generationId: string | null,
    serviceCredits: number | null,
    reason: string,
  ) {
    logger.warn({ taskId, generationId, serviceCredits, reason }, "orphan task on the service");
    const inserted = await db
      .insert(orphanTasks)
      .values({ taskId, generationId, serviceCredits, reason })
      .onConflictDoNothing()
      .returning({ taskId: orphanTasks.taskId });
    if (inserted.length > 0) ctx.onOrphan?.(taskId, serviceCredits);
  }

  return { recordOrphan };
}

export type OrphanRecords = ReturnType<typeof orphanRecords>;
