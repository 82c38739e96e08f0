import { readFileSync } from "node:fs";
import { z } from "zod";
import { dubbingBilledMinutes } from "../../platform/media-service/catalog";
import defaults from "./default-prices.json";

/**
 * The user's price list, in credits. Images: per image, by model and resolution
 * (`default` for models with one quality). Video: per second, by model and
 * resolution. Dubbing: per started minute, at least one.
 */
const credits = z.number().int().positive();
const pricesShape = z.object({
  image: z.record(z.string(), z.record(z.string(), credits)),
  video: z.record(z.string(), z.record(z.string(), credits)),
  dub: z.object({ perMinute: credits }),
});
/**
 * `serviceCost`: what the media service bills for each choice, in service
 * credits, the same shape as the prices (any part may be left out). The check
 * at start-up and in /stats names every price below it (see cost-check.ts).
 */
const priceTableSchema = pricesShape.extend({
  serviceCost: pricesShape.partial().optional(),
});
export type PriceTable = z.infer<typeof priceTableSchema>;
export type ServiceCosts = NonNullable<PriceTable["serviceCost"]>;

export class PriceTableError extends Error {
  override name = "PriceTableError";
}

export function loadPriceTable(path?: string): PriceTable {
  if (!path) return priceTableSchema.parse(defaults);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new PriceTableError(`PRICES_FILE ${path}: cannot be read as JSON (${(err as Error).message})`);
  }
  const parsed = priceTableSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new PriceTableError(`PRICES_FILE ${path}: ${problems}`);
  }
  return parsed.data;
}

/** `discount`: the percent taken off the list price (a plan's), when some was. */
export type PriceQuote =
  | { ok: true; credits: number; unit: number; discount?: number }
  | { ok: false; reason: "no_price" };

/** A price with `percent` off, rounded up to a whole credit: never free, never below what the rule says. */
export const discounted = (credits: number, percent: number) => Math.ceil((credits * (100 - percent)) / 100);

/** `record[key]` when the record has it as its own: a name from a request ("__proto__") never reads the prototype */
function own<T>(record: Record<string, T> | undefined, key: string | undefined): T | undefined {
  return record && key !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * The price list, with `discount` percent off every price it gives (a
 * plan's; 0 for the list itself). A dub's parts are each discounted, as
 * each is priced; a request's price and its settled charge go through the
 * same functions, so what is shown, held and charged agree.
 */
export function createPrices(table: PriceTable, discount = 0) {
  function imageUnit(model: string, resolution?: string): number | undefined {
    const row = own(table.image, model);
    if (!row) return undefined;
    return own(row, resolution) ?? row.default ?? row["1K"];
  }
  const priced = (unit: number | undefined, count: number): PriceQuote => {
    if (unit === undefined) return { ok: false, reason: "no_price" };
    if (discount === 0) return { ok: true, unit, credits: unit * count };
    return { ok: true, unit, credits: discounted(unit * count, discount), discount };
  };
  return {
    table,
    discount,
    image(model: string, resolution: string | undefined, count: number): PriceQuote {
      return priced(imageUnit(model, resolution), count);
    },
    video(model: string, resolution: string, seconds: number): PriceQuote {
      return priced(own(own(table.video, model), resolution.toLowerCase()), seconds);
    },
    dub(seconds: number): PriceQuote {
      return priced(table.dub.perMinute, dubbingBilledMinutes(seconds));
    },
    /** The same list with `percent` off (a plan's discount; 0: the list itself). */
    withDiscount(percent: number): Prices {
      return percent === discount ? this : createPrices(table, percent);
    },
  };
}
export interface Prices {
  table: PriceTable;
  discount: number;
  image(model: string, resolution: string | undefined, count: number): PriceQuote;
  video(model: string, resolution: string, seconds: number): PriceQuote;
  dub(seconds: number): PriceQuote;
  withDiscount(percent: number): Prices;
}
