import { and, eq, inArray } from "drizzle-orm";
import type { Database, Executor } from "../../platform/db/client";
import { type GenerationState, generations } from "../../platform/db/schema";
import type { Clock } from "../../platform/lib/clock";
import type { Logger } from "../../platform/lib/logger";
import type { Credits } from "../credits/ledger";
import type { Prices } from "../pricing/prices";
import type { LifecycleObserver } from "./lifecycle";
import type { Operation } from "./params";
import type { Generation, GenerationQueues } from "./types";

export interface GenerationsOptions {
  db: Database;
  credits: Credits;
  prices: Prices;
  /** the percent off a user's requests (their plan's); none when not given */
  discountOf?(userId: number): Promise<number>;
  /** the operator's refused rule a prompt matches (the refusal recorded), or undefined; none refused when not given */
  screenPrompt?(userId: number, operation: Operation, prompt: string): Promise<string | undefined>;
  queues: GenerationQueues;
  clock: Clock;
  logger: Logger;
  /** told of each step a generation takes (logs, business metrics) */
  observe?: LifecycleObserver;
  /** a task the service ran that no generation can take was recorded */
  onOrphan?(taskId: string, serviceCredits: number | null): void;
  /** how long after submission a task may run before we expire it, by operation (clock ms) */
  deadlineMs?: Partial<Record<Operation, number>>;
}

/** What every part of the generations module works with. */
export interface GenerationsContext extends Omit<GenerationsOptions, "deadlineMs"> {
  deadlines: Record<Operation, number>;
  now(): Date;
}

/** One arrow of the state diagram: a conditional UPDATE that moves only from the given states. */
export function stateMover(ctx: Pick<GenerationsContext, "now">) {
  const { now } = ctx;
  async function move(
    ex: Executor,
    id: string,
    from: GenerationState[],
    to: GenerationState,
    patch: Partial<typeof generations.$inferInsert> = {},
  ): Promise<Generation | null> {
    const [row] = await ex
      .update(generations)
      .set({ ...patch, state: to, updatedAt: now() })
      .where(and(eq(generations.id, id), inArray(generations.state, from)))
      .returning();
    return row ?? null;
  }
  return move;
}
