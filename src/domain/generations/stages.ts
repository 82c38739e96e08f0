import { deliverStage } from "./deliver/stage";
import type { Stage } from "./stage";
import { submitStage } from "./submit/stage";
import { syncStage } from "./sync/stage";

/**
 * A generation's stages, in the order a generation goes through them. A new stage is its
 * folder (a `stage.ts` with its queue and jobs) and one entry here; the stage before it
 * hands generations on to it.
 */
export const stages: readonly Stage[] = [submitStage, syncStage, deliverStage];

/** The queues every process makes: the stages' (features' jobs ride in them too). */
export const stageQueues = stages.map((stage) => stage.queue);
