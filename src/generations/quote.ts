import { limits } from "../media/catalog";
import type { PriceQuote, Prices } from "../pricing/prices";
import { quotedPartSeconds } from "./dub-parts";
import type { GenerationParams } from "./params";

/** The service's maximum dubbing length: what a dubbing link whose length cannot be read is held for. */
export const maxDubSeconds = limits.dubbingMaxSeconds;

/** What a price depends on: a request being picked, or the params of a confirmed one. */
export type PricedRequest =
  | Pick<
      Extract<GenerationParams, { operation: "image" | "edit" }>,
      "operation" | "model" | "resolution" | "numImages"
    >
  | Pick<Extract<GenerationParams, { operation: "video" }>, "operation" | "model" | "resolution" | "duration">
  | Pick<Extract<GenerationParams, { operation: "dub" }>, "operation" | "durationSeconds">;

/** The price shown in the pickers and the summary, and held on confirm: one rule for all. */
export function quote(prices: Prices, p: PricedRequest): PriceQuote {
  switch (p.operation) {
    case "image":
    case "edit":
      return prices.image(p.model, p.resolution, p.numImages);
    case "video":
      return prices.video(p.model, p.resolution, p.duration);
    case "dub":
      return sumOfParts(prices, quotedPartSeconds(p.durationSeconds ?? maxDubSeconds));
  }
}

/** A dub is billed per part, each part per started minute: the price is the parts' sum. */
function sumOfParts(prices: Prices, partSeconds: readonly number[]): PriceQuote {
  let credits = 0;
  for (const seconds of partSeconds) {
    const part = prices.dub(seconds);
    if (!part.ok) return part;
    credits += part.credits;
  }
  return { ok: true, credits, unit: prices.table.dub.perMinute };
}

export interface DeliveredOutputs {
  images: number;
  videos: number;
  audios: number;
  /** dubbing: the input duration the service measured (for a dub in parts, each part's) */
  measuredSeconds?: number | readonly number[] | null;
}

/**
 * What the user pays for what actually came back, never more than was held:
 * fewer images than asked cost less; dubbing settles to the measured length.
 */
export function settle(prices: Prices, p: GenerationParams, held: number, got: DeliveredOutputs): number {
  let amount: number;
  switch (p.operation) {
    case "image":
    case "edit": {
      const count = Math.min(got.images, p.numImages);
      const q = prices.image(p.model, p.resolution, count);
      amount = q.ok ? q.credits : held;
      break;
    }
    case "video":
      amount = got.videos > 0 ? held : 0;
      break;
    case "dub": {
      if (got.videos + got.audios === 0) amount = 0;
      else if (got.measuredSeconds == null) amount = held;
      else {
        const measured =
          typeof got.measuredSeconds === "number" ? [got.measuredSeconds] : got.measuredSeconds;
        const q = sumOfParts(prices, measured);
        amount = q.ok ? q.credits : held;
      }
      break;
    }
  }
  return Math.max(0, Math.min(held, amount));
}
