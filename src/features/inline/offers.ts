import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Redis } from "ioredis";
import { z } from "zod";
import { type GenerationParamsInput, generationParams } from "../../domain/generations/params";
import type { Database } from "../../platform/db/client";
import { inlineOffers } from "../../platform/db/schema";

/** What an inline answer offers: nothing is held until its placer presses Confirm. */
export interface InlineOffer {
  offerId: string;
  userId: number;
  language: string;
  params: GenerationParamsInput;
  price: number;
}

const storedOffer = z.object({
  offerId: z.string(),
  userId: z.number().int(),
  language: z.string(),
  params: z.record(z.string(), z.unknown()),
  price: z.number().int().nonnegative(),
});

/** The offer as stored (Redis JSON or an `inline_offers` row), checked: undefined when it no longer parses. */
function offerOf(raw: unknown): InlineOffer | undefined {
  const parsed = storedOffer.safeParse(raw);
  if (!parsed.success || !generationParams.safeParse(parsed.data.params).success) return undefined;
  return { ...parsed.data, params: parsed.data.params as GenerationParamsInput };
}

/**
 * A short id of an offer (20 base64url characters): the same user, prompt,
 * options and price give the same id, so the keystrokes of one query do not
 * pile up distinct offers.
 */
export function offerIdOf(userId: number, params: GenerationParamsInput, price: number): string {
  const normalized = {
    ...params,
    ...("prompt" in params ? { prompt: params.prompt.trim().replace(/\s+/g, " ") } : {}),
  };
  const canonical = JSON.stringify([
    userId,
    price,
    Object.entries(normalized).sort(([a], [b]) => (a < b ? -1 : 1)),
  ]);
  return createHash("sha256").update(canonical).digest("base64url").slice(0, 20);
}

export const offerTtlSeconds = 24 * 60 * 60;

/**
 * Offers live in Redis while they can be placed (inline queries come per
 * keystroke: no Postgres write for them); a placed one is kept in Postgres
 * (`inline_offers`, by inline_message_id), where Confirm finds it even after
 * Redis forgot.
 */
export function createInlineOffers(deps: { db: Database; redis: Redis; prefix: string }) {
  const { db, redis } = deps;
  const keyOf = (offerId: string) => `${deps.prefix}:inline:offer:${offerId}`;

  async function save(offer: InlineOffer): Promise<void> {
    await redis.set(keyOf(offer.offerId), JSON.stringify(offer), "EX", offerTtlSeconds);
  }

  async function load(offerId: string): Promise<InlineOffer | undefined> {
    const raw = await redis.get(keyOf(offerId));
    if (raw === null) return undefined;
    try {
      return offerOf(JSON.parse(raw));
    } catch {
      return undefined;
    }
  }

  /** Records where an offer was placed; the first record of an inline message stays. */
  async function place(inlineMessageId: string, offer: InlineOffer): Promise<void> {
    await db
      .insert(inlineOffers)
      .values({
        inlineMessageId,
        offerId: offer.offerId,
        userId: offer.userId,
        language: offer.language,
        params: offer.params as Record<string, unknown>,
        price: offer.price,
      })
      .onConflictDoNothing({ target: inlineOffers.inlineMessageId });
  }

  async function placed(inlineMessageId: string) {
    const [row] = await db
      .select()
      .from(inlineOffers)
      .where(eq(inlineOffers.inlineMessageId, inlineMessageId));
    if (!row) return undefined;
    const offer = offerOf(row);
    return offer ? { offer, generationId: row.generationId } : undefined;
  }

  /** A new price was shown on the placed message: Confirm now agrees to that one. */
  async function reprice(inlineMessageId: string, offer: InlineOffer): Promise<void> {
    await db
      .update(inlineOffers)
      .set({ offerId: offer.offerId, price: offer.price })
      .where(eq(inlineOffers.inlineMessageId, inlineMessageId));
  }

  async function setGeneration(inlineMessageId: string, generationId: string): Promise<void> {
    await db
      .update(inlineOffers)
      .set({ generationId })
      .where(eq(inlineOffers.inlineMessageId, inlineMessageId));
  }

  return { save, load, place, placed, reprice, setGeneration };
}
export type InlineOffers = ReturnType<typeof createInlineOffers>;
