import { imageChoicePrices } from "../../domain/generations/choice-prices";
import { fitImageOptions, type ImageOptions } from "../../domain/generations/image-options";
import type { Prices } from "../../domain/pricing/prices";
import type { Translate } from "../../platform/i18n/i18n";
import {
  type ImageResolution,
  type ImageSize,
  imageModelInfo,
  imageModels,
  imageSizes,
  isImageModel,
  limits,
} from "../../platform/media-service/catalog";
import type { Setting } from "./panel";
import { priced } from "./summary";

const counts = Array.from({ length: limits.numImages.max - limits.numImages.min + 1 }, (_, i) => i + 1);

/** Model, aspect ratio, resolution (models with several) and count (models with several outputs). */
export function imageSettings<S extends { options: ImageOptions }>(
  t: Translate,
  prices: Prices,
): Setting<S>[] {
  const withOptions = (s: S, options: ImageOptions): S => ({ ...s, options });
  return [
    {
      id: "m",
      visible: () => true,
      button: (s) => t("cv-btn-model", { value: s.options.model }),
      title: () => t("cv-pick-model-image"),
      choices: (s) =>
        imageModels.map((model) => ({
          value: model,
          label: priced(t, model, imageChoicePrices(prices, s.options).model?.[model]),
        })),
      current: (s) => s.options.model,
      apply: (s, v) => (isImageModel(v) ? withOptions(s, fitImageOptions(s.options, v)) : s),
      layout: { perRow: 1, perPage: 10 },
    },
    {
      id: "a",
      visible: () => true,
      button: (s) => t("cv-btn-aspect", { value: s.options.imageSize }),
      title: () => t("cv-pick-aspect"),
      choices: () => imageSizes.map((size) => ({ value: size, label: size })),
      current: (s) => s.options.imageSize,
      apply: (s, v) =>
        (imageSizes as readonly string[]).includes(v)
          ? withOptions(s, { ...s.options, imageSize: v as ImageSize })
          : s,
      layout: { perRow: 3, perPage: 9 },
    },
    {
      id: "r",
      visible: (s) => imageModelInfo[s.options.model].qualities.length > 1,
      button: (s) => t("cv-btn-resolution", { value: s.options.resolution ?? "" }),
      title: () => t("cv-pick-resolution"),
      choices: (s) =>
        imageModelInfo[s.options.model].qualities.map((q) => ({
          value: q,
          label: priced(t, q, imageChoicePrices(prices, s.options).resolution?.[q]),
        })),
      current: (s) => s.options.resolution,
      apply: (s, v) =>
        (imageModelInfo[s.options.model].qualities as readonly string[]).includes(v)
          ? withOptions(s, { ...s.options, resolution: v as ImageResolution })
          : s,
      layout: { perRow: 3, perPage: 9 },
    },
    {
      id: "n",
      visible: (s) => imageModelInfo[s.options.model].multipleOutputs,
      button: (s) => t("cv-btn-count", { value: s.options.numImages }),
      title: () => t("cv-pick-count"),
      choices: (s) =>
        counts.map((n) => ({
          value: String(n),
          label: priced(t, String(n), imageChoicePrices(prices, s.options).numImages?.[String(n)]),
        })),
      current: (s) => String(s.options.numImages),
      apply: (s, v) => {
        const n = Number(v);
        return counts.includes(n) ? withOptions(s, { ...s.options, numImages: n }) : s;
      },
      layout: { perRow: 2, perPage: 4 },
    },
  ];
}

export function imageOptionLines(t: Translate, o: ImageOptions): string[] {
  const lines = [t("cv-line-model", { value: o.model }), t("cv-line-aspect", { value: o.imageSize })];
  if (o.resolution && imageModelInfo[o.model].qualities.length > 1)
    lines.push(t("cv-line-resolution", { value: o.resolution }));
  lines.push(t("cv-line-count", { value: o.numImages }));
  return lines;
}
