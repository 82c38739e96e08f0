import { z } from "zod";
import { type CreditPack, packId } from "../../platform/config/credit-packs";
import { type PlanPeriod, subscriptionPeriodSeconds } from "./plan-subscriptions";

/** What a pack grants: its credits and its bonus. */
export const packTotal = (pack: CreditPack) => pack.credits + pack.bonus;

/**
 * What an invoice carries back in pre_checkout_query, successful_payment and
 * the Stars transactions: a pack or a monthly plan (by id), the credits and
 * Stars it was sold for, and the buyer. A plan's renewals carry its first
 * invoice's payload.
 */
export interface InvoicePayload {
  product: "pack" | "plan";
  id: string;
  credits: number;
  stars: number;
  userId: number;
}

const prefixes = { pack: "buy1", plan: "plan1" } as const;

export function makePayload(p: InvoicePayload): string {
  return [prefixes[p.product], p.id, p.credits, p.stars, p.userId].join(":");
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
      z.enum([prefixes.pack, prefixes.plan]),
      packId,
      count,
      count,
      z
        .string()
        .regex(/^[1-9]\d{0,15}$/)
        .transform(Number),
    ]),
  )
  .transform(
    ([prefix, id, credits, stars, userId]): InvoicePayload => ({
      product: prefix === prefixes.plan ? "plan" : "pack",
      id,
      credits,
      stars,
      userId,
    }),
  );

/** The payload of an invoice this bot made; undefined for anything else. */
export function parsePayload(payload: string): InvoicePayload | undefined {
  const parsed = payloadSchema.safeParse(payload);
  return parsed.success ? parsed.data : undefined;
}

/**
 * What a paid invoice records beside its credits: the pack, or the plan's
 * period (ending when Telegram says, or a period after it was paid).
 */
export function paidProduct(
  invoice: InvoicePayload,
  paid: { at: Date; endsAt?: Date | undefined; first?: boolean | undefined },
): { packId?: string; period?: PlanPeriod } {
  if (invoice.product === "pack") return { packId: invoice.id };
  return {
    period: {
      planId: invoice.id,
      paidAt: paid.at,
      endsAt: paid.endsAt ?? new Date(paid.at.getTime() + subscriptionPeriodSeconds * 1000),
      first: paid.first,
    },
  };
}
