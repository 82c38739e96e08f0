import { z } from "zod";
import { type JobHandler, type JobKind, jobHandler } from "../../queue/job";
import { type SubmitDeps, submitGeneration } from "./submit-step";

const submitData = z.object({ v: z.literal(1), gid: z.uuid() });

/** The submit job: one per generation (its id is the job id), sent to the service. */
export const submitJob: JobKind<z.infer<typeof submitData>> = {
  queue: "submit",
  name: "submit",
  label: "submit",
  data: submitData,
  policy: { attempts: 8, backoffMs: 2_000 },
};

/** Runs `submitGeneration` and tells the queue what follows: done, later, a pause of all submits, or a retry. */
export function submitJobHandler(
  deps: SubmitDeps,
  /** how long submitting pauses after the service refused our key or balance (clock ms) */
  operatorPauseMs: number,
): JobHandler {
  return jobHandler(submitJob, async ({ gid }, attempt) => {
    const outcome = await submitGeneration(gid, deps, operatorPauseMs, attempt);
    switch (outcome.kind) {
      case "wait-for-adoption":
        return { kind: "later", outcome: outcome.kind, realMs: deps.clock.toReal(outcome.delayMs) };
      case "pause":
        return {
          kind: "pause",
          outcome: outcome.kind,
          realMs: outcome.realMs ?? deps.clock.toReal(outcome.delayMs),
        };
      case "retry":
        throw outcome.error;
      default:
        return { kind: "done", outcome: outcome.kind };
    }
  });
}
