import { and, eq, isNull } from "drizzle-orm";
import { deliveries, generations } from "../../platform/db/schema";
import type { GenerationsContext } from "./context";
import type { SentFileKind } from "./deliver/sent-file";

/** What was sent and shown for a generation: delivery attempts, the status message, the notice. */
export function deliveryRecords(ctx: Pick<GenerationsContext, "db" | "now">) {
  const { db, now } = ctx;

  /** The forum topic is gone: the next attempt answers in the chat itself. */
  async function forgetThread(id: string): Promise<void> {
    await db.update(generations).set({ threadId: null }).where(eq(generations.id, id));
  }

  /** One row per attempt to send a result: what was tried, and what came of it. */
  async function recordDelivery(
    generationId: string,
    attempt: number,
    outcome:
      | { state: "sending" }
      | { state: "sent"; messageIds: number[] }
      | { state: "failed"; error: string },
  ): Promise<void> {
    const values = {
      state: outcome.state,
      messageIds: outcome.state === "sent" ? outcome.messageIds : null,
      error: outcome.state === "failed" ? outcome.error.slice(0, 500) : null,
    };
    await db
      .insert(deliveries)
      .values({ generationId, attempt, ...values })
      .onConflictDoUpdate({ target: [deliveries.generationId, deliveries.attempt], set: values });
  }

  function deliveriesOf(generationId: string) {
    return db
      .select()
      .from(deliveries)
      .where(eq(deliveries.generationId, generationId))
      .orderBy(deliveries.attempt);
  }

  async function markNotified(id: string): Promise<boolean> {
    const rows = await db
      .update(generations)
      .set({ notifiedAt: now() })
      .where(and(eq(generations.id, id), isNull(generations.notifiedAt)))
      .returning({ id: generations.id });
    return rows.length === 1;
  }

  async function setStatusShown(id: string, text: string, messageId?: number): Promise<void> {
    await db
      .update(generations)
      .set({ statusShown: text, ...(messageId ? { statusMessageId: messageId } : {}) })
      .where(eq(generations.id, id));
  }

  /**
   * Files already uploaded for a generation still being delivered: an attempt
   * after a crash shows these instead of uploading a second copy.
   */
  async function recordUploaded(id: string, fileIds: string[], fileKinds: SentFileKind[]): Promise<void> {
    await db
      .update(generations)
      .set({ fileIds, fileKinds })
      .where(and(eq(generations.id, id), eq(generations.state, "delivering")));
  }

  return { forgetThread, recordDelivery, deliveriesOf, markNotified, setStatusShown, recordUploaded };
}

export type DeliveryRecords = ReturnType<typeof deliveryRecords>;
