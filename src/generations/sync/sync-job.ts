import { z } from "zod";
import { type JobHandler, type JobKind, jobHandler } from "../../queue/job";
import type { SyncHints } from "./sync-hints";
import { type SyncDeps, syncGeneration } from "./sync-step";

const syncData = z.object({
  v: z.literal(1),
  gid: z.uuid(),
  /** how many polls so far, for backoff */
  polls: z.number().int().nonnegative().default(0),
  /** a task id a webhook named for this gid, to adopt after a crash in submit */
  adopt: z.string().min(1).optional(),
});
export type SyncJobData = z.infer<typeof syncData>;

/** The sync job: one per generation at a time (its id is the job id), polling the service until the task ends. */
export const syncJob: JobKind<SyncJobData> = {
  queue: "sync",
  name: "sync",
  label: "sync",
  data: syncData,
  policy: { attempts: 5, backoffMs: 3_000 },
};

export interface SyncJobDeps extends SyncDeps {
  hints: SyncHints;
}

/** Runs `syncGeneration`; a poll again waits, unless a webhook left a hint meanwhile. */
export function syncJobHandler(deps: SyncJobDeps): JobHandler {
  return jobHandler(syncJob, async (data) => {
    const hinted = await deps.hints.take(data.gid);
    const outcome = await syncGeneration(data.gid, data.polls, deps, data.adopt ?? hinted?.adopt);
    if (outcome.kind !== "poll-again") return { kind: "done", outcome: outcome.kind };
    // a webhook that came while we were looking: look again now instead of sleeping
    const fresh = await deps.hints.take(data.gid);
    const next: SyncJobData = {
      v: 1,
      gid: data.gid,
      polls: data.polls + 1,
      ...(fresh?.adopt ? { adopt: fresh.adopt } : {}),
    };
    return {
      kind: "later",
      outcome: outcome.kind,
      realMs: fresh ? 1 : deps.clock.toReal(outcome.delayMs),
      data: next,
    };
  });
}
