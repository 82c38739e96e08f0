import {
  defaultImageModel,
  defaultImageSize,
  type ImageModel,
  type ImageResolution,
  type ImageSize,
  imageModelInfo,
  imageSizes,
  isImageModel,
  limits,
  nearestImageSize,
} from "../../platform/media-service/catalog";
import type { Prices } from "../pricing/prices";
import { quote } from "./quote";

/** The options of an image or an edit, always valid for the chosen model. */
export interface ImageOptions {
  model: ImageModel;
  imageSize: ImageSize;
  resolution: ImageResolution | undefined;
  numImages: number;
}

/** Keeps what still applies to `model` and fills the rest with its defaults. */
export function fitImageOptions(options: ImageOptions, model: ImageModel): ImageOptions {
  const info = imageModelInfo[model];
  const resolution =
    info.qualities.length === 0
      ? undefined
      : options.resolution && info.qualities.includes(options.resolution)
        ? options.resolution
        : info.qualities[0];
  return {
    model,
    imageSize: options.imageSize,
    resolution,
    numImages: info.multipleOutputs ? options.numImages : 1,
  };
}

/** The defaults; an edit keeps the proportions of its first picture when they are known. */
export function defaultImageOptions(picture?: { width?: number; height?: number }): ImageOptions {
  const imageSize =
    picture?.width && picture.height ? nearestImageSize(picture.width, picture.height) : defaultImageSize;
  return fitImageOptions(
    { model: defaultImageModel, imageSize, resolution: undefined, numImages: 1 },
    defaultImageModel,
  );
}

/** Options of stored params (a retry), checked against today's catalog. */
export function imageOptionsFrom(p: {
  model: string;
  imageSize: string;
  resolution?: string | undefined;
  numImages: number;
}): ImageOptions {
  const model = isImageModel(p.model) ? p.model : defaultImageModel;
  const imageSize = (imageSizes as readonly string[]).includes(p.imageSize)
    ? (p.imageSize as ImageSize)
    : defaultImageSize;
  return fitImageOptions(
    {
      model,
      imageSize,
      resolution: p.resolution as ImageResolution | undefined,
      numImages: Math.min(Math.max(p.numImages, 1), limits.numImages.max),
    },
    model,
  );
}

export const imageQuote = (prices: Prices, o: ImageOptions) => quote(prices, { operation: "image", ...o });
