import { z } from "zod";
import { type CreditPack, packId } from "../../platform/config/credit-packs";

/** What a pack grants: its credits and its bonus. */
export const packTotal = (pack: CreditPack) => pack.credits + pack.bonus;

/**
 * What an invoice carries back in pre_checkout_query and successful_payment:
 * the pack, the credits and Stars it was sold for, and the buyer.
 */
export interface InvoicePayload {
  packId: string;
  credits: number;
  stars: number;
  userId: number;
}

const payloadPrefix = "buy1";

export function makePayload(p: InvoicePayload): string {
  return [payloadPrefix, p.packId, p.credits, p.stars, p.userId].join(":");
}

const count = z
  .string()
  .regex(/^[1-9]\d{0,8}$/)
  .transform(Number);
const payloadSchema = z
  .string()
  .max(128)
  .transform((s) => s.split(":"))
  .pipe(
    z.tuple([
      z.literal(payloadPrefix),
      packId,
      count,
      count,
      z
        .string()
        .regex(/^[1-9]\d{0,15}$/)
        .transform(Number),
    ]),
  )
  .transform(([, id, credits, stars, userId]): InvoicePayload => ({ packId: id, credits, stars, userId }));

/** The payload of an invoice this bot made; undefined for anything else. */
export function parsePayload(payload: string): InvoicePayload | undefined {
  const parsed = payloadSchema.safeParse(payload);
  return parsed.success ? parsed.data : undefined;
}
