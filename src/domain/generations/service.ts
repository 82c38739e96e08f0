import type { GenerationsContext, GenerationsOptions } from "./context";
import { type GenerationCreation, generationCreation } from "./create";
import { type DeliveryRecords, deliveryRecords } from "./delivery-records";
import type { LifecycleObserver } from "./lifecycle";
import { type OrphanRecords, orphanRecords } from "./orphans";
import { type DubPartRecords, dubPartRecords } from "./parts";
import { type GenerationReads, generationReads } from "./reads";
import { defaultDeadlines } from "./states";
import { type GenerationTransitions, generationTransitions } from "./transitions";
import { type UsualDurations, usualDurations } from "./usual-durations";

/**
 * Generations, the life of one request, in the interfaces their callers use:
 * creation, reads, the state machine's arrows (transitions), how long a request
 * usually takes, what was delivered and shown, orphan tasks, and a dub's parts.
 * A caller names the ones it needs (`Pick<GenerationTransitions, "complete">`);
 * `Generations` is all of them, what the runtime makes once.
 * The types are in types.ts, the options in context.ts.
 */
export type Generations = GenerationCreation &
  GenerationReads &
  GenerationTransitions &
  UsualDurations &
  DeliveryRecords &
  OrphanRecords &
  DubPartRecords;

export function createGenerations(opts: GenerationsOptions): Generations {
  const deadlines = { ...defaultDeadlines, ...opts.deadlineMs };
  const now = () => new Date(opts.clock.now());
  const usual = usualDurations(opts);
  // a completion this process saw: the next estimate of its kind is read again
  const observe: LifecycleObserver = (event) => {
    if (event.step === "completed")
      usual.forgetUsual({ operation: event.g.operation, model: event.g.params.model });
    opts.observe?.(event);
  };
  const ctx: GenerationsContext = { ...opts, deadlines, now, observe };
  const reads = generationReads(ctx);
  return {
    ...generationCreation(ctx),
    ...reads,
    ...generationTransitions(ctx, reads),
    ...usual,
    ...deliveryRecords(ctx),
    ...orphanRecords(ctx),
    ...dubPartRecords(ctx),
  };
}
