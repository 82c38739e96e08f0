import type { HelpSection } from "../../bot/features/help";
import type { DubInputRules } from "../../domain/generations/inputs";
import { promptMaxLength } from "../../domain/generations/params";
import type { Prices } from "../../domain/pricing/prices";
import { allowedDurations, limits, videoModelIds } from "../../platform/media-service/catalog";

const span = (values: readonly number[]) => ({ from: Math.min(...values), to: Math.max(...values) });
const megabytes = (bytes: number) => Math.floor(bytes / 1_000_000);

/**
 * The requests' part of /help: what each kind costs (the price table's lowest
 * and highest, whatever the operator set) and its limits (the service's
 * catalog, the dubbing rules of this deployment).
 */
export function requestsHelp(deps: { prices: Pick<Prices, "table">; dubRules: DubInputRules }): HelpSection {
  return ({ t }) => {
    const { table } = deps.prices;
    const image = span(Object.values(table.image).flatMap((row) => Object.values(row)));
    const video = span(Object.values(table.video).flatMap((row) => Object.values(row)));
    const seconds = span(videoModelIds.flatMap((model) => allowedDurations(model)));
    return t("help-limits", {
      imageFrom: image.from,
      imageTo: image.to,
      imagesMax: limits.numImages.max,
      editPhotos: limits.editMaxImageUrls,
      videoFrom: video.from,
      videoTo: video.to,
      secondsFrom: seconds.from,
      secondsTo: seconds.to,
      dubPerMinute: table.dub.perMinute,
      dubMinutes: Math.floor(deps.dubRules.maxSeconds / 60),
      uploadMb: megabytes(deps.dubRules.uploadMaxBytes),
      linkMb: megabytes(deps.dubRules.sourceMaxBytes),
      promptMax: promptMaxLength,
    });
  };
}
