import type { Clock } from "../../platform/lib/clock";
import { addJob, type Queues } from "../../platform/queue/queues";
import { deliverJob } from "./deliver/deliver-step";
import { submitJob } from "./submit/submit-step";
import type { SyncHints } from "./sync/sync-hints";
import { syncJob } from "./sync/sync-step";
import type { GenerationQueues } from "./types";

/** The queues as a generation's stages see them: each job's id is the generation's id. */
export function generationQueues(queues: Queues, clock: Clock, hints: SyncHints): GenerationQueues {
  return {
    async submit(id, opts) {
      await addJob(queues, clock, submitJob, {
        jobId: id,
        data: { v: 1, gid: id },
        ...(opts?.delayMs ? { realDelayMs: clock.toReal(opts.delayMs) } : {}),
      });
    },
    async sync(id, opts) {
      if (opts?.now) {
        const existing = await queues.of(syncJob.queue.name).getJob(id);
        if (existing) {
          // a delayed poll is brought forward; a running one finds the hint before it sleeps
          await hints.leave(id, opts.adopt);
          // no isDelayed() first: promoting a job that is not delayed changes nothing
          await existing.promote().catch(() => undefined);
          return;
        }
      }
      await addJob(queues, clock, syncJob, {
        jobId: id,
        data: { v: 1, gid: id, polls: 0, ...(opts?.adopt ? { adopt: opts.adopt } : {}) },
        ...(opts?.delayMs ? { realDelayMs: clock.toReal(opts.delayMs) } : {}),
      });
    },
    async deliver(id) {
      await addJob(queues, clock, deliverJob, { jobId: id, data: { v: 1, gid: id } });
    },
  };
}
