import defaults from "../../src/domain/pricing/default-prices.json";
import {
  dubbingBilledMinutes,
  type ImageModel,
  type ImageResolution,
  type VideoModel,
  type VideoResolution,
} from "../../src/platform/media-service/catalog";

/**
 * The simulator's price list. The document shows no prices; only the shapes
 * are documented: images per image, video per second by resolution, dubbing
 * per started minute (minimum one). The numbers live in one place, the
 * `serviceCost` of the default price table, so the bot's check of its prices
 * against the service's costs (src/domain/pricing/cost-check.ts) reads the same ones.
 */
const costs = defaults.serviceCost;

function own(record: Record<string, number> | undefined, key: string): number | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

export function imageUnitPrice(model: ImageModel, resolution: ImageResolution): number {
  const row: Record<string, number> = costs.image[model];
  const unit = own(row, resolution) ?? own(row, "default");
  if (unit === undefined) throw new Error(`no simulator cost for ${model} ${resolution}`);
  return unit;
}

/** Credits per second of video, by model and resolution. */
export function videoUnitPrice(model: VideoModel, resolution: VideoResolution): number {
  const unit = own(costs.video[model], resolution);
  if (unit === undefined) throw new Error(`no simulator cost for ${model} ${resolution}`);
  return unit;
}

export function videoPrice(model: VideoModel, resolution: VideoResolution, duration: number): number {
  return videoUnitPrice(model, resolution) * duration;
}

export const dubbingPerMinute = costs.dub.perMinute;

export function dubbingPrice(durationSeconds: number): number {
  return dubbingPerMinute * dubbingBilledMinutes(durationSeconds);
}
