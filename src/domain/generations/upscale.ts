import { type ImageModel, imageModelInfo, imageModels } from "../../platform/media-service/catalog";
import type { Prices } from "../pricing/prices";
import { quote } from "./quote";

/** The ⬆️ 4K action on a result: an edit of the picture at this resolution. */
export const upscaleResolution = "4K";

/**
 * The model of a higher-resolution edit: the cheapest one that makes 4K
 * pictures at today's prices (the catalog's first on a tie); the first such
 * model when none has a price (the panel then says so and cannot confirm).
 */
export function upscaleModel(prices: Prices): ImageModel | undefined {
  const candidates = imageModels.filter((m) => imageModelInfo[m].qualities.includes(upscaleResolution));
  let best: { model: ImageModel; credits: number } | undefined;
  for (const model of candidates) {
    const q = quote(prices, { operation: "edit", model, resolution: upscaleResolution, numImages: 1 });
    if (q.ok && (best === undefined || q.credits < best.credits)) best = { model, credits: q.credits };
  }
  return best?.model ?? candidates[0];
}
