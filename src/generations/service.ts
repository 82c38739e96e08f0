import type { GenerationsContext, GenerationsOptions } from "./context";
import { generationCreation } from "./create";
import { deliveryRecords } from "./delivery-records";
import { orphanRecords } from "./orphans";
import type { Operation } from "./params";
import { dubPartRecords } from "./parts";
import { generationReads } from "./reads";
import { defaultDeadlines } from "./states";
import { generationTransitions } from "./transitions";
import { usualDurations } from "./usual-durations";

/**
 * Generations, the life of one request: creation, the state machine's arrows,
 * reads, what was delivered and shown, orphan tasks, and how long a request
 * usually takes, each in its own module.
 * The types are in types.ts, the options in context.ts.
 */
export function createGenerations(opts: GenerationsOptions) {
  const deadlines = { ...defaultDeadlines, ...opts.deadlineMs };
  const ctx: GenerationsContext = { ...opts, deadlines, now: () => new Date(opts.clock.now()) };
  const reads = generationReads(ctx);
  const usual = usualDurations(ctx);
  const transitions = generationTransitions(ctx, reads);
  return {
    ...generationCreation(ctx),
    ...reads,
    ...transitions,
    async complete(...args: Parameters<typeof transitions.complete>) {
      const done = await transitions.complete(...args);
      if (done)
        usual.forgetUsual({ operation: done.generation.operation, model: done.generation.params.model });
      return done;
    },
    ...usual,
    ...deliveryRecords(ctx),
    ...orphanRecords(ctx),
    ...dubPartRecords(ctx),
    deadlineOf: (op: Operation) => deadlines[op],
  };
}

export type Generations = ReturnType<typeof createGenerations>;
