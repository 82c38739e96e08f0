import { z } from "zod";
import { type JobHandler, type JobKind, jobHandler } from "../../queue/job";
import { type DeliverDeps, deliverGeneration } from "./deliver-step";

const deliverData = z.object({ v: z.literal(1), gid: z.uuid() });

/**
 * The deliver job: one per generation (its id is the job id). It shares the deliver
 * queue, and its limit of Telegram sends, with broadcasts: results carry no priority,
 * so BullMQ takes them before any broadcast job.
 */
export const deliverJob: JobKind<z.infer<typeof deliverData>> = {
  queue: "deliver",
  name: "deliver",
  label: "deliver",
  data: deliverData,
  policy: { attempts: 10, backoffMs: 2_000 },
};

/** Runs `deliverGeneration`; Telegram's flood control pauses every send of every worker. */
export function deliverJobHandler(deps: DeliverDeps): JobHandler {
  return jobHandler(deliverJob, async ({ gid }) => {
    const outcome = await deliverGeneration(gid, deps);
    if (outcome.kind !== "flood") return { kind: "done", outcome: outcome.kind };
    deps.logger.warn(
      { generationId: gid, retryAfter: outcome.retryAfterSeconds },
      "telegram flood control: pausing sends",
    );
    return { kind: "pause", outcome: outcome.kind, realMs: outcome.retryAfterSeconds * 1000 };
  });
}
