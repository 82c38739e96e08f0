import {
  allowedDurations,
  defaultDubTarget,
  defaultImageModel,
  defaultImageSize,
  defaultVideoModel,
  type ImageModel,
  imageModelInfo,
  isImageModel,
  isVideoModel,
  type VideoModel,
  videoModels,
} from "../../../platform/media-service/catalog";
import type {
  AppInput,
  AppOperation,
  ComposeRequest,
  PresetResponse,
  QuoteRequest,
  StartOptions,
} from "../contract";
import type { Key } from "./i18n";

/**
 * The composer's choices as plain data and what is derived from them: no
 * drawing and no requests, so each function can be read (and tested) alone.
 */

export interface Attached {
  input: AppInput;
  kind: "photo" | "audio" | "video";
  name: string;
  /** a blob: URL of a file picked on this device, or the result's picture */
  preview?: string | undefined;
}

export interface Draft {
  operation: AppOperation;
  prompt: string;
  /** a 4K version: the prompt is the service's, not shown */
  upscale: boolean;
  imageModel: ImageModel;
  imageSize: string;
  imageResolution: string | undefined;
  numImages: number;
  videoModel: VideoModel;
  duration: number;
  videoResolution: string;
  aspectRatio: string;
  generateAudio: boolean;
  webSearch: boolean;
  images: Attached[];
  source: Attached | undefined;
  targetLanguage: string;
  sourceLanguage: string;
}

/** What a field of the composer is drawn from: the draft, and how to change it. */
export interface FieldProps {
  draft: Draft;
  update(patch: Partial<Draft>): void;
}

/** Keeps what still applies to the models and fills the rest with their defaults, as the chat's pickers do. */
export function fitted(d: Draft): Draft {
  const image = imageModelInfo[d.imageModel];
  const video = videoModels[d.videoModel];
  const durations = allowedDurations(d.videoModel);
  return {
    ...d,
    imageResolution:
      image.qualities.length === 0
        ? undefined
        : (image.qualities.find((q) => q === d.imageResolution) ?? image.qualities[0]),
    numImages: image.multipleOutputs ? d.numImages : 1,
    duration: durations.includes(d.duration) ? d.duration : video.defaultDuration,
    videoResolution: (video.resolutions as readonly string[]).includes(d.videoResolution)
      ? d.videoResolution
      : video.defaultResolution,
    aspectRatio: (video.aspectRatios as readonly string[]).includes(d.aspectRatio)
      ? d.aspectRatio
      : video.defaultAspectRatio,
    generateAudio: video.audio && d.generateAudio,
    webSearch: video.webSearch && d.webSearch,
  };
}

/**
 * The draft Create starts with: a picture, with each operation's options where
 * the chat's panels start them (`start`, from GET /composer: the remembered
 * ones, else the defaults); without `start`, the catalog's defaults.
 */
export function initialDraft(lang: string, start?: StartOptions): Draft {
  const draft = defaultDraft(lang);
  return start ? withStart(draft, "image", start) : draft;
}

function defaultDraft(lang: string): Draft {
  const video = videoModels[defaultVideoModel];
  return fitted({
    operation: "image",
    prompt: "",
    upscale: false,
    imageModel: defaultImageModel,
    imageSize: defaultImageSize,
    imageResolution: undefined,
    numImages: 1,
    videoModel: defaultVideoModel,
    duration: video.defaultDuration,
    videoResolution: video.defaultResolution,
    aspectRatio: video.defaultAspectRatio,
    generateAudio: false,
    webSearch: false,
    images: [],
    source: undefined,
    targetLanguage: defaultDubTarget(lang),
    sourceLanguage: "auto",
  });
}

/** The draft with `operation`'s starting options (a picture's for image and edit, and the video's and dubbing's). */
function withStart(d: Draft, operation: AppOperation, start: StartOptions): Draft {
  const image = operation === "edit" ? start.edit : start.image;
  const { video, dub } = start;
  return fitted({
    ...d,
    imageModel: isImageModel(image.model) ? image.model : d.imageModel,
    imageSize: image.imageSize,
    imageResolution: image.resolution,
    numImages: image.numImages,
    videoModel: isVideoModel(video.model) ? video.model : d.videoModel,
    duration: video.duration,
    videoResolution: video.resolution,
    aspectRatio: video.aspectRatio,
    generateAudio: video.generateAudio,
    webSearch: video.webSearch,
    targetLanguage: dub.targetLanguage,
    sourceLanguage: dub.sourceLanguage,
  });
}

const imageFields = ["imageModel", "imageSize", "imageResolution", "numImages"] as const;

/**
 * Another operation chosen. Image and edit are remembered apart (as in the
 * chat): moving between them takes the other's starting options, unless the
 * user changed the picture's options here already (those are kept).
 */
export function withOperation(d: Draft, operation: AppOperation, start: StartOptions | undefined): Draft {
  const next = { ...d, operation, upscale: false };
  const isImage = (o: AppOperation) => o === "image" || o === "edit";
  if (!start || !isImage(d.operation) || !isImage(operation) || d.operation === operation) return next;
  const untouched = withStart(d, d.operation, start);
  if (imageFields.some((f) => untouched[f] !== d[f])) return next;
  const moved = withStart(d, operation, start);
  const { imageModel, imageSize, imageResolution, numImages } = moved;
  return { ...next, imageModel, imageSize, imageResolution, numImages };
}

export function withPreset(d: Draft, p: PresetResponse): Draft {
  const r = p.request;
  const attached = (input: AppInput): Attached => ({
    input,
    kind: "photo",
    name: "",
    preview: input.url,
  });
  const next: Draft = {
    ...d,
    operation: p.operation,
    upscale: p.upscale,
    prompt: r.prompt ?? "",
    images: r.images ? r.images.map(attached) : [],
    source: r.source ? { ...attached(r.source), kind: "video" } : undefined,
  };
  if (r.model && isImageModel(r.model)) next.imageModel = r.model;
  if (r.model && isVideoModel(r.model)) next.videoModel = r.model;
  if (r.imageSize) next.imageSize = r.imageSize;
  if (r.resolution) {
    next.imageResolution = r.resolution;
    next.videoResolution = r.resolution;
  }
  if (r.numImages) next.numImages = r.numImages;
  if (r.duration) next.duration = r.duration;
  if (r.aspectRatio) next.aspectRatio = r.aspectRatio;
  if (r.generateAudio !== undefined) next.generateAudio = r.generateAudio;
  if (r.webSearch !== undefined) next.webSearch = r.webSearch;
  if (r.targetLanguage) next.targetLanguage = r.targetLanguage;
  if (r.sourceLanguage) next.sourceLanguage = r.sourceLanguage;
  return fitted(next);
}

export function requestOf(d: Draft): ComposeRequest {
  const image = {
    prompt: d.prompt,
    model: d.imageModel,
    imageSize: d.imageSize,
    ...(d.imageResolution ? { resolution: d.imageResolution } : {}),
    numImages: d.numImages,
  };
  switch (d.operation) {
    case "image":
      return { operation: "image", ...image };
    case "edit":
      return { operation: "edit", ...image, images: d.images.map((a) => a.input) };
    case "video":
      return {
        operation: "video",
        prompt: d.prompt,
        model: d.videoModel,
        duration: d.duration,
        resolution: d.videoResolution,
        aspectRatio: d.aspectRatio,
        ...(videoModels[d.videoModel].audio ? { generateAudio: d.generateAudio } : {}),
        ...(videoModels[d.videoModel].webSearch ? { webSearch: d.webSearch } : {}),
      };
    case "dub":
      return {
        operation: "dub",
        // checked by `missing` before it is sent
        source: d.source?.input ?? { kind: "upload", id: "-" },
        targetLanguage: d.targetLanguage,
        sourceLanguage: d.sourceLanguage,
      };
  }
}

/**
 * Only what the price depends on: the quote is asked again when one of these
 * changes. Undefined: nothing to price yet (a dub's price is its file's length).
 */
export function pricedOf(d: Draft): QuoteRequest["request"] | undefined {
  switch (d.operation) {
    case "image":
    case "edit":
      return {
        operation: d.operation,
        model: d.imageModel,
        numImages: d.numImages,
        ...(d.imageResolution ? { resolution: d.imageResolution } : {}),
      };
    case "video":
      return { operation: "video", model: d.videoModel, resolution: d.videoResolution, duration: d.duration };
    case "dub":
      return d.source ? { operation: "dub", source: d.source.input } : undefined;
  }
}

/** The prompt's length as the chat's rule counts it (params.ts: trimmed). */
export const promptLength = (prompt: string): number => prompt.trim().length;

/** Whether the draft's operation takes the user's prompt (a 4K version's is ours). */
const takesPrompt = (d: Draft): boolean => d.operation !== "dub" && !d.upscale;

/**
 * What must be added or changed before Confirm can work, in words; undefined:
 * nothing. A prompt over the limit is kept as it is (the field says by how much).
 */
export function missing(d: Draft, promptMaxLength: number): Key | undefined {
  if (takesPrompt(d)) {
    if (d.prompt.trim() === "") return "need-prompt";
    if (promptLength(d.prompt) > promptMaxLength) return "need-shorter";
  }
  if (d.operation === "edit" && d.images.length === 0) return "need-pictures";
  if (d.operation === "dub" && !d.source) return "need-source";
  return undefined;
}
