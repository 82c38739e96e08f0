import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { generations, users } from "../../platform/db/schema";
import type { GenerationsContext } from "./context";
import { generationParams } from "./params";
import { promptHasWords } from "./prompt-rule";
import { quote } from "./quote";
import type { CreateInput, CreateResult } from "./types";

class Abort<T> extends Error {
  constructor(readonly result: T) {
    super("generations: abort");
  }
}

/** The first arrow (→ queued): validate, price, hold and insert in one transaction, idempotent on the key. */
export function generationCreation(ctx: GenerationsContext) {
  const { db, credits, prices, queues, logger, discountOf, screenPrompt } = ctx;

  async function create(input: CreateInput): Promise<CreateResult> {
    const parsed = generationParams.safeParse(input.params);
    if (!parsed.success)
      return { ok: false, reason: "invalid", message: parsed.error.issues[0]?.message ?? "invalid" };
    const params = parsed.data;
    if (params.operation !== "dub" && !promptHasWords(params.prompt))
      return { ok: false, reason: "invalid", message: "the prompt has no letter, digit or emoji" };
    // a request made already is found whatever the price table says now (a second tap after a price change)
    const existing = await db.select().from(generations).where(eq(generations.requestKey, input.key));
    if (existing[0]) return { ok: true, generation: existing[0], created: false };

    // before any price is held: a prompt the operator refuses makes nothing, on every surface
    if (params.operation !== "dub" && screenPrompt) {
      const rule = await screenPrompt(input.userId, params.operation, params.prompt);
      if (rule !== undefined) {
        logger.info({ userId: input.userId, operation: params.operation, rule }, "prompt refused by a rule");
        return { ok: false, reason: "refused_prompt" };
      }
    }
    // the user's plan, as the price they were shown read it: a price shown before the plan began (or ended) is a changed price
    const discount = discountOf ? await discountOf(input.userId) : 0;
    const q = quote(prices.withDiscount(discount), params);
    if (!q.ok) return { ok: false, reason: "no_price" };
    if (input.expectedPrice !== undefined && input.expectedPrice !== q.credits) {
      return { ok: false, reason: "price_changed", price: q.credits };
    }

    const id = randomUUID();
    const holdKey = `gen-${id}`;
    let result: CreateResult;
    try {
      result = await db.transaction(async (tx) => {
        // `for share`: a /ban (an update of this row) waits for us, so it then finds this generation queued and cancels it
        const [who] = await tx
          .select({ bannedAt: users.bannedAt })
          .from(users)
          .where(eq(users.id, input.userId))
          .for("share");
        if (who?.bannedAt) throw new Abort<CreateResult>({ ok: false, reason: "banned" });
        const [row] = await tx
          .insert(generations)
          .values({
            id,
            requestKey: input.key,
            userId: input.userId,
            chatId: input.chat.chatId,
            threadId: input.chat.threadId ?? null,
            replyToMessageId: input.chat.replyToMessageId ?? null,
            statusMessageId: input.chat.statusMessageId ?? null,
            inlineMessageId: input.chat.inlineMessageId ?? null,
            language: input.language,
            operation: params.operation,
            params: params as unknown as Record<string, unknown>,
            price: q.credits,
            discount,
            holdKey,
            state: "queued",
            statusShown: input.statusShown ?? null,
          })
          .onConflictDoNothing({ target: generations.requestKey })
          .returning();
        if (!row) throw new Abort<"raced">("raced");
        const held = await credits.hold({ userId: input.userId, amount: q.credits, key: holdKey }, tx);
        if (!held.ok) {
          throw new Abort<CreateResult>({
            ok: false,
            reason: "insufficient",
            price: q.credits,
            available: held.available,
            missing: held.missing,
          });
        }
        return { ok: true as const, generation: row, created: true };
      });
    } catch (err) {
      if (!(err instanceof Abort)) throw err;
      if (err.result !== "raced") return err.result as CreateResult;
      const [winner] = await db.select().from(generations).where(eq(generations.requestKey, input.key));
      if (!winner) throw new Error(`generations: request ${input.key} vanished after a conflict`);
      return { ok: true, generation: winner, created: false };
    }
    if (result.ok && result.created) ctx.observe?.({ step: "created", g: result.generation });
    if (!input.deferSubmit) await enqueueSubmit(id);
    return result;
  }

  async function enqueueSubmit(id: string): Promise<void> {
    await queues.submit(id).catch((err: unknown) => {
      // the reconciler re-enqueues it; the generation is safe in Postgres
      logger.warn({ err, generationId: id }, "could not enqueue submit");
    });
  }

  return { create, enqueueSubmit };
}

export type GenerationCreation = ReturnType<typeof generationCreation>;
