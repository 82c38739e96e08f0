import { z } from "zod";

/** A credit pack on sale: `credits` plus `bonus` for `stars` Telegram Stars. */
export interface CreditPack {
  id: string;
  credits: number;
  stars: number;
  bonus: number;
}

export const packId = z
  .string()
  .regex(/^[a-z0-9_-]{1,16}$/, "id must be 1-16 characters of a-z, 0-9, _ or -");
const positive = (what: string) =>
  z
    .number({ error: `${what} must be a whole number` })
    .int(`${what} must be a whole number`)
    .positive(`${what} must be positive`);

export const creditPackSchema: z.ZodType<CreditPack> = z.strictObject({
  id: packId,
  credits: positive("credits"),
  stars: positive("stars").max(100_000, "stars must be at most 100000"),
  bonus: z
    .number({ error: "bonus must be a whole number" })
    .int("bonus must be a whole number")
    .min(0, "bonus must be 0 or more")
    .default(0),
});

export const defaultCreditPacks: readonly CreditPack[] = [
  { id: "s", credits: 50, stars: 50, bonus: 0 },
  { id: "m", credits: 150, stars: 140, bonus: 10 },
  { id: "l", credits: 500, stars: 450, bonus: 50 },
  { id: "xl", credits: 1200, stars: 1000, bonus: 200 },
];

/** A setting written as JSON: unset or blank is undefined (the schema's default), unreadable JSON fails the schema. */
export function jsonSetting<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => {
    if (v === undefined || (typeof v === "string" && v.trim() === "")) return undefined;
    if (typeof v !== "string") return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return "(not JSON)";
    }
  }, schema);
}

/** `CREDIT_PACKS`: a JSON array of packs with unique ids; unset, the defaults. */
export const creditPacksSetting = jsonSetting(
  z
    .array(creditPackSchema, {
      error: 'must be a JSON array of packs, e.g. [{"id":"s","credits":50,"stars":50,"bonus":0}]',
    })
    .min(1, "must list at least one pack")
    .max(8, "must list at most 8 packs")
    .refine((packs) => new Set(packs.map((p) => p.id)).size === packs.length, "pack ids must be unique")
    .default([...defaultCreditPacks]),
);
