import {
  allowedDurations,
  defaultImageSize,
  type ImageResolution,
  imageModelInfo,
  imageModels,
  isImageModel,
  isVideoModel,
  limits,
  type VideoResolution,
  videoModelIds,
  videoModelInfo,
} from "../../platform/media-service/catalog";
import type { Prices } from "../pricing/prices";
import { fitImageOptions, type ImageOptions } from "./image-options";
import { type PricedRequest, quote } from "./quote";
import { fitVideoOptions, type VideoOptions } from "./video-options";

/**
 * Option name (`model`, `resolution`, `numImages`, `duration`: those whose
 * choices the chat's pickers price) → value → its price with the other options
 * as they are (null: no price). An option without priced choices is absent.
 */
export type ChoicePrices = Record<string, Record<string, number | null>>;

const counts = Array.from(
  { length: limits.numImages.max - limits.numImages.min + 1 },
  (_, i) => limits.numImages.min + i,
);

function priced<T>(values: readonly T[], price: (value: T) => PricedRequest, prices: Prices) {
  return Object.fromEntries(
    values.map((v) => {
      const q = quote(prices, price(v));
      return [String(v), q.ok ? q.credits : null];
    }),
  );
}

/**
 * What each choice of a request being picked would cost: every model with the
 * options fitted to it, and the resolutions, counts or lengths of the chosen
 * model; the same fitting and quote as the chat's pickers (requests/image-settings.ts,
 * requests/video.ts). An unknown model has no priced choices.
 */
export function choicePrices(prices: Prices, request: PricedRequest): ChoicePrices {
  switch (request.operation) {
    case "image":
    case "edit": {
      const { operation } = request;
      if (!isImageModel(request.model)) return {};
      const options: ImageOptions = fitImageOptions(
        {
          model: request.model,
          imageSize: defaultImageSize,
          resolution: request.resolution as ImageResolution | undefined,
          numImages: request.numImages,
        },
        request.model,
      );
      return imageChoicePrices(prices, options, operation);
    }
    case "video": {
      if (!isVideoModel(request.model)) return {};
      const options = fitVideoOptions(
        {
          duration: request.duration,
          resolution: request.resolution as VideoResolution,
        },
        request.model,
      );
      return videoChoicePrices(prices, options);
    }
    case "dub":
      return {};
  }
}

/**
 * Each image choice's price with the other options as `options` has them:
 * every model (the options fitted to it), and the resolutions and counts of
 * the chosen model where it has several. The chat's pickers label their
 * buttons with these, the Mini App its choices.
 */
export function imageChoicePrices(
  prices: Prices,
  options: ImageOptions,
  operation: "image" | "edit" = "image",
): ChoicePrices {
  const info = imageModelInfo[options.model];
  const image = (o: ImageOptions): PricedRequest => ({ operation, ...o });
  return {
    model: priced(imageModels, (m) => image(fitImageOptions(options, m)), prices),
    ...(info.qualities.length > 1
      ? { resolution: priced(info.qualities, (q) => image({ ...options, resolution: q }), prices) }
      : {}),
    ...(info.multipleOutputs
      ? { numImages: priced(counts, (n) => image({ ...options, numImages: n }), prices) }
      : {}),
  };
}

/** Each video choice's price with the other options as `options` has them, as imageChoicePrices does. */
export function videoChoicePrices(prices: Prices, options: VideoOptions): ChoicePrices {
  const info = videoModelInfo(options.model);
  const video = (o: VideoOptions): PricedRequest => ({ operation: "video", ...o });
  return {
    model: priced(videoModelIds, (m) => video(fitVideoOptions(options, m)), prices),
    duration: priced(allowedDurations(options.model), (d) => video({ ...options, duration: d }), prices),
    ...(info.resolutions.length > 1
      ? { resolution: priced(info.resolutions, (r) => video({ ...options, resolution: r }), prices) }
      : {}),
  };
}
