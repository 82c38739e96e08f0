import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "../db/client";
import { type GenerationState, generations } from "../db/schema";
import type { Operation } from "./params";
import type { Generation, GenerationsOptions } from "./service";

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
