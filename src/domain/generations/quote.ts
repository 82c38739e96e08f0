import { limits } from "../../platform/media-service/catalog";
import type { PriceQuote, Prices } from "../pricing/prices";
import { dubBudgets } from "./dub-parts";
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

/**
 * A price as shown and held; `upTo` when what is charged may come out lower
 * (settled to what the service measured), so the user reads "up to N".
 */
export type Quote = PriceQuote & { upTo?: true };

/** The price shown in the pickers and the summary, and held on confirm: one rule for all. */
export function quote(prices: Prices, p: PricedRequest): Quote {
  switch (p.operation) {
    case "image":
    case "edit":
      return prices.image(p.model, p.resolution, p.numImages);
    case "video":
      return prices.video(p.model, p.resolution, p.duration);
    case "dub":
      return dubQuote(prices, p.durationSeconds);
  }
}

/**
 * A dub is held for the budgets of its length and a second more: a length
 * read before Confirm is whole seconds (Telegram's, a link's probe), and the
 * file the worker measures may be up to a second longer. A link whose length
 * cannot be read is held for the service's 5 minutes, and refused when longer
 * (dub-source.ts). The charge settles to the parts really cut and measured,
 * so it may fall below the hold where the least the file can be is in fewer
 * started minutes.
 */
function dubQuote(prices: Prices, seconds: number | undefined): Quote {
  const held = budgetsPrice(prices, dubBudgets(seconds === undefined ? maxDubSeconds : seconds + 1));
  if (!held.ok) return held;
  // the least the file can be: its length as read, or a minute for a length not read
  const least = prices.dub(seconds ?? 0);
  return least.ok && least.credits < held.credits ? { ...held, upTo: true } : held;
}

/** What the service may bill for parts within these budgets (whole minutes each), at our price. */
export function budgetsPrice(prices: Prices, budgets: readonly number[]): PriceQuote {
  return sumOfParts(
    prices,
    budgets.map((minutes) => minutes * limits.dubbingBillingUnitSeconds),
  );
}

/** A dub is billed per part, each part per started minute: the price is the parts' sum. */
function sumOfParts(prices: Prices, partSeconds: readonly number[]): PriceQuote {
  let credits = 0;
  for (const seconds of partSeconds) {
    const part = prices.dub(seconds);
    if (!part.ok) return part;
    credits += part.credits;
  }
  const unit = prices.table.dub.perMinute;
  return prices.discount > 0
    ? { ok: true, credits, unit, discount: prices.discount }
    : { ok: true, credits, unit };
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
