import {
  dubbingBilledMinutes,
  type ImageModel,
  type ImageResolution,
  type VideoModel,
  type VideoResolution,
  videoModels,
} from "../media/catalog";

/**
 * The simulator's price list. The document shows no prices; only the shapes
 * are documented: images per image, video-b family = resolution rate x
 * duration, dubbing per started minute (minimum one).
 */

const imageBase: Record<ImageModel, number> = {
  "nano-core-2": 4,
  "nano-core-2-1": 4,
  "nano-lite": 2,
  "nano-pro": 8,
  "alpha-speed": 3,
  "alpha-quality": 6,
  "beta-image-2-5-flare": 5,
  "beta-image-2-5-sunburst": 5,
  "gamma-5-pro": 10,
  "delta-3-image": 5,
};
const qualityFactor: Record<ImageResolution, number> = { "1K": 1, "2K": 2, "4K": 4 };

export function imageUnitPrice(model: ImageModel, resolution: ImageResolution): number {
  return imageBase[model] * qualityFactor[resolution];
}

/** Credits per second of video-b output, by resolution. */
export const videoBResolutionRate: Record<VideoResolution, number> = {
  "480p": 2,
  "720p": 3,
  "1080p": 5,
  "4k": 10,
};
const videoModelRate: Record<VideoModel, number> = {
  "video-a-v3-turbo": 2,
  "video-b-2": 0,
  "video-c-3": 4,
  "video-c-3-prime": 6,
  "video-b-2-5": 0,
  "video-b-2-mini": 0,
  "video-d-imagine": 3,
  "video-e-3.1": 8,
};
const resolutionFactor: Record<VideoResolution, number> = { "480p": 1, "720p": 1, "1080p": 2, "4k": 4 };

export function videoPrice(model: VideoModel, resolution: VideoResolution, duration: number): number {
  if (videoModels[model].family === "video-b") return videoBResolutionRate[resolution] * duration;
  return videoModelRate[model] * resolutionFactor[resolution] * duration;
}

export const dubbingPerMinute = 10;

export function dubbingPrice(durationSeconds: number): number {
  return dubbingPerMinute * dubbingBilledMinutes(durationSeconds);
}
