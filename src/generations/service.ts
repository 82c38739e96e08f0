import type { GenerationsContext, GenerationsOptions } from "./context";
import { generationCreation } from "./create";
import { deliveryRecords } from "./delivery-records";
import { orphanRecords } from "./orphans";
import type { Operation } from "./params";
import { dubPartRecords } from "./parts";
import { generationReads } from "./reads";
import { defaultDeadlines } from "./states";
import { generationTransitions } from "./transitions";

/**
 * Generations, the life of one request: creation, the state machine's arrows,
 * reads, what was delivered and shown, and orphan tasks, each in its own module.
 * The types are in types.ts, the options in context.ts.
 */
export function createGenerations(opts: GenerationsOptions) {
  const deadlines = { ...defaultDeadlines, ...opts.deadlineMs };
  const ctx: GenerationsContext = { ...opts, deadlines, now: () => new Date(opts.clock.now()) };
  const reads = generationReads(ctx);
  return {
    ...generationCreation(ctx),
    ...reads,
    ...generationTransitions(ctx, reads),
    ...deliveryRecords(ctx),
    ...orphanRecords(ctx),
    ...dubPartRecords(ctx),
    deadlineOf: (op: Operation) => deadlines[op],
  };
}

export type Generations = ReturnType<typeof createGenerations>;
