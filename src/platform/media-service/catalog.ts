/**
 * Every model, value and limit of the media service document
 * (../shared/reference/media-service-api.md), in one place. The client, the
 * request schemas, the bot's keyboards and the simulator all read from here.
 * Decisions where the document is silent are listed in ./ASSUMPTIONS.md.
 */

/** The four operations, in the order the bot lists them. */
export const operations = ["image", "edit", "video", "dub"] as const;
export type Operation = (typeof operations)[number];

// ---------------------------------------------------------------- images (4.2, 4.3)

/** Default first (4.3). All image models also edit (4.2). */
export const imageModels = [
  "nano-core-2",
  "nano-core-2-1",
  "nano-lite",
  "nano-pro",
  "alpha-speed",
  "alpha-quality",
  "beta-image-2-5-flare",
  "beta-image-2-5-sunburst",
  "gamma-5-pro",
  "delta-3-image",
] as const;
export type ImageModel = (typeof imageModels)[number];
export const defaultImageModel: ImageModel = "nano-core-2";

/** Output aspect ratios ("image_size"); default 9:16. */
export const imageSizes = ["16:9", "1:1", "9:16"] as const;
export type ImageSize = (typeof imageSizes)[number];
export const defaultImageSize: ImageSize = "9:16";

export const imageResolutions = ["1K", "2K", "4K"] as const;
export type ImageResolution = (typeof imageResolutions)[number];

export interface ImageModelInfo {
  /** accepts num_images 2..4 (see ASSUMPTIONS.md: the document names no model that does not) */
  multipleOutputs: boolean;
  /** the `resolution` values it honours; empty: the parameter is ignored (1K output) */
  qualities: readonly ImageResolution[];
  family: string;
}

const qualityFamilies = ["beta-image", "gamma"] as const;

function imageFamily(model: ImageModel): string {
  return qualityFamilies.find((f) => model.startsWith(`${f}-`)) ?? model.split("-")[0]!;
}

export const imageModelInfo: Readonly<Record<ImageModel, ImageModelInfo>> = Object.fromEntries(
  imageModels.map((model): [ImageModel, ImageModelInfo] => {
    const family = imageFamily(model);
    const hasQualities = (qualityFamilies as readonly string[]).includes(family);
    return [model, { multipleOutputs: true, qualities: hasQualities ? imageResolutions : [], family }];
  }),
) as Record<ImageModel, ImageModelInfo>;

export function isImageModel(value: string): value is ImageModel {
  return (imageModels as readonly string[]).includes(value);
}

/** The listed image_size closest to a picture's proportions ("send the reference image's ratio"). */
export function nearestImageSize(width: number, height: number): ImageSize {
  const ratio = Math.log(width / height);
  let best: ImageSize = defaultImageSize;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const size of imageSizes) {
    const [w, h] = size.split(":").map(Number) as [number, number];
    const distance = Math.abs(Math.log(w / h) - ratio);
    if (distance < bestDistance) {
      best = size;
      bestDistance = distance;
    }
  }
  return best;
}

// ---------------------------------------------------------------- video (4.4)

export const videoResolutions = ["480p", "720p", "1080p", "4k"] as const;
export type VideoResolution = (typeof videoResolutions)[number];

export const videoAspectRatios = ["16:9", "9:16", "1:1", "auto"] as const;
export type VideoAspectRatio = (typeof videoAspectRatios)[number];

export type DurationRule = { min: number; max: number } | readonly number[];

/** A fixed set of durations (video-e-3.1) rather than a range. */
export function isDurationList(rule: DurationRule): rule is readonly number[] {
  return Array.isArray(rule);
}

export interface VideoModelInfo {
  durations: DurationRule;
  resolutions: readonly VideoResolution[];
  aspectRatios: readonly VideoAspectRatio[];
  defaultDuration: number;
  defaultResolution: VideoResolution;
  defaultAspectRatio: VideoAspectRatio;
  /** generate_audio accepted (video-b family) */
  audio: boolean;
  /** web_search accepted (video-b family) */
  webSearch: boolean;
  family: string;
  note: string;
}

const commonAspects = ["16:9", "9:16", "1:1"] as const satisfies readonly VideoAspectRatio[];

function videoModel(
  family: string,
  durations: DurationRule,
  resolutions: readonly VideoResolution[],
  note: string,
  overrides: Partial<VideoModelInfo> = {},
): VideoModelInfo {
  const isB = family === "video-b";
  const min = isDurationList(durations) ? Math.min(...durations) : durations.min;
  return {
    durations,
    resolutions,
    aspectRatios: commonAspects,
    // The document's default of 5 s is below video-d-imagine's minimum: use the minimum there.
    defaultDuration: Math.max(5, min),
    defaultResolution: "720p",
    defaultAspectRatio: "9:16",
    audio: isB,
    webSearch: isB,
    family,
    note,
    ...overrides,
  };
}

export const videoModels = {
  "video-a-v3-turbo": videoModel("video-a", { min: 3, max: 15 }, ["720p", "1080p"], "Fastest, for previews."),
  "video-b-2": videoModel(
    "video-b",
    { min: 4, max: 15 },
    ["480p", "720p", "1080p", "4k"],
    "Supports generate_audio.",
  ),
  "video-c-3": videoModel(
    "video-c",
    { min: 2, max: 30 },
    ["480p", "720p", "1080p"],
    "Described as supporting first/last frame and multimedia references.",
  ),
  "video-c-3-prime": videoModel(
    "video-c",
    { min: 2, max: 30 },
    ["480p", "720p", "1080p"],
    "Premium variant of video-c-3.",
  ),
  "video-b-2-5": videoModel("video-b", { min: 4, max: 30 }, ["480p", "720p", "1080p"], "Longest output."),
  "video-b-2-mini": videoModel("video-b", { min: 4, max: 15 }, ["480p", "720p"], "Lowest cost."),
  "video-d-imagine": videoModel("video-d", { min: 6, max: 15 }, ["480p", "720p"], "", {
    aspectRatios: [...commonAspects, "auto"],
  }),
  "video-e-3.1": videoModel(
    "video-e",
    [4, 6, 8],
    ["720p", "1080p", "4k"],
    "Duration selects quality tier: 4 s = Lite, 6 s = Fast, 8 s = Quality.",
    { defaultDuration: 8, defaultAspectRatio: "16:9", aspectRatios: ["16:9", "9:16"] },
  ),
} as const satisfies Record<string, VideoModelInfo>;

export type VideoModel = keyof typeof videoModels;
export const videoModelIds = Object.keys(videoModels) as VideoModel[];
export const defaultVideoModel: VideoModel = "video-a-v3-turbo";

export function isVideoModel(value: string): value is VideoModel {
  return Object.hasOwn(videoModels, value);
}

export function videoModelInfo(model: VideoModel): VideoModelInfo {
  return videoModels[model];
}

/** Every duration a model accepts, for keyboards. */
export function allowedDurations(model: VideoModel): number[] {
  const rule: DurationRule = videoModels[model].durations;
  if (isDurationList(rule)) return [...rule];
  const { min, max } = rule;
  return Array.from({ length: max - min + 1 }, (_, i) => min + i);
}

export function durationAllowed(model: VideoModel, seconds: number): boolean {
  return Number.isInteger(seconds) && allowedDurations(model).includes(seconds);
}

// ---------------------------------------------------------------- dubbing (4.1)

export const dubbingLanguages = [
  "fa",
  "en",
  "ar",
  "tr",
  "de",
  "fr",
  "es",
  "it",
  "pt",
  "ru",
  "ja",
  "ko",
  "zh",
  "hi",
  "nl",
  "pl",
  "sv",
  "id",
  "uk",
  "ro",
  "el",
  "cs",
  "da",
  "fi",
  "bg",
  "hr",
  "sk",
  "ms",
  "fil",
  "ta",
] as const;
export type DubbingLanguage = (typeof dubbingLanguages)[number];
export const isDubbingLanguage = (v: string): v is DubbingLanguage =>
  (dubbingLanguages as readonly string[]).includes(v);
/** English names, for prompts and keyboards (the bot translates them). */
export const dubbingLanguageNames: Readonly<Record<DubbingLanguage, string>> = {
  fa: "Persian",
  en: "English",
  ar: "Arabic",
  tr: "Turkish",
  de: "German",
  fr: "French",
  es: "Spanish",
  it: "Italian",
  pt: "Portuguese",
  ru: "Russian",
  ja: "Japanese",
  ko: "Korean",
  zh: "Chinese",
  hi: "Hindi",
  nl: "Dutch",
  pl: "Polish",
  sv: "Swedish",
  id: "Indonesian",
  uk: "Ukrainian",
  ro: "Romanian",
  el: "Greek",
  cs: "Czech",
  da: "Danish",
  fi: "Finnish",
  bg: "Bulgarian",
  hr: "Croatian",
  sk: "Slovak",
  ms: "Malay",
  fil: "Filipino",
  ta: "Tamil",
};
export const dubbingSourceLanguages = [...dubbingLanguages, "auto"] as const;
export type DubbingSourceLanguage = (typeof dubbingSourceLanguages)[number];

/** MP3, WAV, M4A, OGG, WEBM, MP4, MOV */
export const dubbingFormats = ["mp3", "wav", "m4a", "ogg", "webm", "mp4", "mov"] as const;
export type DubbingFormat = (typeof dubbingFormats)[number];

export const dubbingModelPrefix = "dubbing-provider:";

// ---------------------------------------------------------------- limits (8)

export const limits = {
  metadataMaxKeys: 16,
  metadataMaxValueLength: 500,
  editMaxImageUrls: 3,
  numImages: { min: 1, max: 4 },
  dubbingMaxSeconds: 5 * 60,
  /** "100 MB", read as 10^8 bytes: the smaller reading, so we never send what may be refused */
  dubbingMaxBytes: 100 * 1000 * 1000,
  dubbingBillingUnitSeconds: 60,
  dubbingMinBilledUnits: 1,
  /** "about 15 minutes" */
  videoProcessingLimitMs: 15 * 60 * 1000,
  pollIntervalMs: {
    image: { min: 3000, max: 5000 },
    /** not shown for edits: image generation's interval */
    edit: { min: 3000, max: 5000 },
    video: { min: 3000, max: 5000 },
    dub: { min: 5000, max: 10000 },
  },
} as const;

/**
 * How long a task usually takes, in the document's words: "from `fromSeconds`
 * to several minutes" (4.1 dubbing: one to several minutes; 4.4 video: 30
 * seconds to several minutes). Image generation and editing have none: the
 * document only says to poll every 3 to 5 seconds (see ASSUMPTIONS.md).
 */
export const typicalDurations: Readonly<Partial<Record<Operation, { fromSeconds: number }>>> = {
  video: { fromSeconds: 30 },
  dub: { fromSeconds: 60 },
};

/** Where polling starts for an operation (the lower end of the document's interval). */
export function pollIntervalMs(operation: Operation): number {
  return limits.pollIntervalMs[operation].min;
}

/** Billed minutes of a dubbing input: per started minute, at least one. */
export function dubbingBilledMinutes(durationSeconds: number): number {
  return Math.max(
    limits.dubbingMinBilledUnits,
    Math.ceil(durationSeconds / limits.dubbingBillingUnitSeconds),
  );
}

/** The dubbing target a new /dub starts with: into the user's own language is the likely wish; for anyone else, English. */
export function defaultDubTarget(language: string): DubbingLanguage {
  return isDubbingLanguage(language) ? language : "en";
}
