import defaults from "./default-prices.json";
import type { PriceTable, ServiceCosts } from "./prices";

/** One choice of the price table sold below what the service bills for it. */
export interface BelowCost {
  /** e.g. "image gamma-5-pro 4K", "video video-e-3.1 1080p", "dub per minute" */
  choice: string;
  price: number;
  cost: number;
}

function rowsBelow(
  kind: "image" | "video",
  prices: Record<string, Record<string, number>>,
  costs: Record<string, Record<string, number>> | undefined,
): BelowCost[] {
  const found: BelowCost[] = [];
  for (const [model, row] of Object.entries(prices)) {
    const costRow = costs && Object.hasOwn(costs, model) ? costs[model] : undefined;
    for (const [option, price] of Object.entries(row)) {
      const cost = costRow && Object.hasOwn(costRow, option) ? costRow[option] : undefined;
      if (cost !== undefined && price < cost)
        found.push({ choice: `${kind} ${model} ${option}`, price, cost });
    }
  }
  return found;
}

/**
 * Every price in the table (each image model and size, which edits share,
 * each video model and resolution per second, dubbing per minute) below the
 * service's known cost for that choice. A choice without a known cost is not
 * judged.
 */
export function pricesBelowCost(table: PriceTable, costs: ServiceCosts | undefined): BelowCost[] {
  if (!costs) return [];
  const found = [
    ...rowsBelow("image", table.image, costs.image),
    ...rowsBelow("video", table.video, costs.video),
  ];
  if (costs.dub && table.dub.perMinute < costs.dub.perMinute) {
    found.push({ choice: "dub per minute", price: table.dub.perMinute, cost: costs.dub.perMinute });
  }
  return found;
}

/**
 * The costs the check compares with: the price settings' `serviceCost`; without
 * one, in sandbox mode, the built-in simulator's (the default table's); else none.
 */
export function knownCosts(table: PriceTable, simulated: boolean): ServiceCosts | undefined {
  return table.serviceCost ?? (simulated ? defaults.serviceCost : undefined);
}
