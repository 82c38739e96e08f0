import {
  allowedDurations,
  defaultVideoModel,
  isVideoModel,
  type VideoAspectRatio,
  type VideoModel,
  type VideoResolution,
  videoModelInfo,
} from "../../platform/media-service/catalog";
import type { ResolvedVideoRequest } from "../../platform/media-service/schemas";

/** The options of a video, always valid for the chosen model. */
export type VideoOptions = ResolvedVideoRequest;

/** Keeps what the model accepts and takes its defaults for the rest. */
export function fitVideoOptions(o: Partial<VideoOptions>, model: VideoModel): VideoOptions {
  const info = videoModelInfo(model);
  return {
    model,
    duration:
      o.duration !== undefined && allowedDurations(model).includes(o.duration)
        ? o.duration
        : info.defaultDuration,
    resolution:
      o.resolution && info.resolutions.includes(o.resolution) ? o.resolution : info.defaultResolution,
    aspectRatio:
      o.aspectRatio && info.aspectRatios.includes(o.aspectRatio) ? o.aspectRatio : info.defaultAspectRatio,
    generateAudio: info.audio ? (o.generateAudio ?? false) : false,
    webSearch: info.webSearch ? (o.webSearch ?? false) : false,
  };
}

export const defaultVideoOptions = (): VideoOptions => fitVideoOptions({}, defaultVideoModel);

/** Options of stored params (a retry, remembered settings), checked against today's catalog. */
export function videoOptionsFrom(p: {
  model: string;
  duration: number;
  resolution: string;
  aspectRatio: string;
  generateAudio?: boolean | undefined;
  webSearch?: boolean | undefined;
}): VideoOptions {
  const model = isVideoModel(p.model) ? p.model : defaultVideoModel;
  return fitVideoOptions(
    {
      duration: p.duration,
      resolution: p.resolution as VideoResolution,
      aspectRatio: p.aspectRatio as VideoAspectRatio,
      generateAudio: p.generateAudio ?? false,
      webSearch: p.webSearch ?? false,
    },
    model,
  );
}
