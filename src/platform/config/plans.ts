import { z } from "zod";
import { jsonSetting, packId } from "./credit-packs";

/** A monthly plan paid by a Stars subscription: `credits` each period for `stars` a month, and `discount` percent off every request. */
export interface Plan {
  id: string;
  stars: number;
  credits: number;
  discount: number;
}

/** Telegram's bound on a subscription's price, in Stars. */
export const maxSubscriptionStars = 10_000;

const planSchema: z.ZodType<Plan> = z.strictObject({
  id: packId,
  stars: z
    .number({ error: "stars must be a whole number" })
    .int("stars must be a whole number")
    .positive("stars must be positive")
    .max(
      maxSubscriptionStars,
      `stars must be at most ${maxSubscriptionStars} (Telegram's bound on a subscription)`,
    ),
  credits: z
    .number({ error: "credits must be a whole number" })
    .int("credits must be a whole number")
    .positive("credits must be positive"),
  discount: z
    .number({ error: "discount must be a whole number of percent" })
    .int("discount must be a whole number of percent")
    .min(0, "discount must be 0 to 90")
    .max(90, "discount must be 0 to 90")
    .default(0),
});

export const defaultPlans: readonly Plan[] = [{ id: "plus", stars: 250, credits: 300, discount: 10 }];

/** `PLANS`: a JSON array of monthly plans with unique ids; unset, the defaults; `[]`: no plans. */
export const plansSetting = jsonSetting(
  z
    .array(planSchema, {
      error: 'must be a JSON array of plans, e.g. [{"id":"plus","stars":250,"credits":300,"discount":10}]',
    })
    .max(4, "must list at most 4 plans")
    .refine((plans) => new Set(plans.map((p) => p.id)).size === plans.length, "plan ids must be unique")
    .default([...defaultPlans]),
);
