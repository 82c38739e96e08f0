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

export type PriceQuote = { ok: true; credits: number; unit: number } | { ok: false; reason: "no_price" };

/** `record[key]` when the record has it as its own: a name from a request ("__proto__") never reads the prototype */
function own<T>(record: Record<string, T> | undefined, key: string | undefined): T | undefined {
  return record && key !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

export function createPrices(table: PriceTable) {
  function imageUnit(model: string, resolution?: string): number | undefined {
    const row = own(table.image, model);
    if (!row) return undefined;
    return own(row, resolution) ?? row.default ?? row["1K"];
  }
  return {
    table,
    image(model: string, resolution: string | undefined, count: number): PriceQuote {
      const unit = imageUnit(model, resolution);
      return unit === undefined
        ? { ok: false, reason: "no_price" }
        : { ok: true, unit, credits: unit * count };
    },
    video(model: string, resolution: string, seconds: number): PriceQuote {
      const unit = own(own(table.video, model), resolution.toLowerCase());
      return unit === undefined
        ? { ok: false, reason: "no_price" }
        : { ok: true, unit, credits: unit * seconds };
    },
    dub(seconds: number): PriceQuote {
      const minutes = dubbingBilledMinutes(seconds);
      return { ok: true, unit: table.dub.perMinute, credits: minutes * table.dub.perMinute };
    },
  };
}
export type Prices = ReturnType<typeof createPrices>;
