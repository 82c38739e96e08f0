import { z } from "zod";
import type { ImageOptions } from "../../domain/generations/image-options";
import { imageOptionsFrom } from "../../domain/generations/image-options";
import type { GenerationParams, GenerationParamsInput } from "../../domain/generations/params";
import { type VideoOptions, videoOptionsFrom } from "../../domain/generations/video-options";
import {
  type DubbingLanguage,
  type DubbingSourceLanguage,
  defaultImageModel,
  defaultImageSize,
  defaultVideoModel,
  isDubbingLanguage,
  limits,
  type Operation,
} from "../../platform/media-service/catalog";
import type { StoredOptions } from "./store";

/**
 * What is remembered of a confirmed request, per operation (the field names of
 * the generation params): image and edit `{ model, imageSize, resolution?,
 * numImages }`; video `{ model, duration, resolution, aspectRatio,
 * generateAudio? }`; dub `{ targetLanguage, sourceLanguage }`. Prompts and
 * inputs are never kept.
 */
export function rememberedOf(params: GenerationParams | GenerationParamsInput): {
  operation: Operation;
  options: StoredOptions;
} {
  switch (params.operation) {
    case "image":
    case "edit":
      return {
        operation: params.operation,
        options: {
          model: params.model,
          imageSize: params.imageSize,
          ...(params.resolution !== undefined ? { resolution: params.resolution } : {}),
          numImages: params.numImages,
        },
      };
    case "video":
      return {
        operation: "video",
        options: {
          model: params.model,
          duration: params.duration,
          resolution: params.resolution,
          aspectRatio: params.aspectRatio,
          ...(params.generateAudio !== undefined ? { generateAudio: params.generateAudio } : {}),
        },
      };
    case "dub":
      return {
        operation: "dub",
        options: { targetLanguage: params.targetLanguage, sourceLanguage: params.sourceLanguage ?? "auto" },
      };
  }
}

// Each field falls back on its own: one stale value (a model since removed) keeps the others.
const storedImage = z.object({
  model: z.string().catch(defaultImageModel),
  imageSize: z.string().catch(defaultImageSize),
  resolution: z.string().optional().catch(undefined),
  numImages: z.number().int().min(limits.numImages.min).max(limits.numImages.max).catch(1),
});

const storedVideo = z.object({
  model: z.string().catch(defaultVideoModel),
  // out of range or junk: fitVideoOptions takes the model's default
  duration: z.number().int().catch(0),
  resolution: z.string().catch(""),
  aspectRatio: z.string().catch(""),
  generateAudio: z.boolean().optional().catch(undefined),
});

const storedDub = z.object({
  targetLanguage: z.string().catch(""),
  sourceLanguage: z.string().catch("auto"),
});

/**
 * Remembered image (or edit) options, checked against today's catalog; undefined
 * when nothing usable is stored (then the caller's defaults apply). Never throws.
 */
export function imageOptionsOfStored(stored: unknown): ImageOptions | undefined {
  const parsed = storedImage.safeParse(stored);
  return parsed.success ? imageOptionsFrom(parsed.data) : undefined;
}

/** Remembered video options, checked against today's catalog; undefined when nothing usable is stored. */
export function videoOptionsOfStored(stored: unknown): VideoOptions | undefined {
  const parsed = storedVideo.safeParse(stored);
  return parsed.success ? videoOptionsFrom(parsed.data) : undefined;
}

export interface DubLanguages {
  target: DubbingLanguage;
  source: DubbingSourceLanguage;
}

const isTarget = isDubbingLanguage;

/**
 * The languages of stored params or remembered options, each checked: an
 * unknown target is `fallbackTarget`; an unknown source, or one equal to the
 * target (the service refuses it), is "auto".
 */
export function dubLanguagesFrom(
  p: { targetLanguage: string; sourceLanguage: string },
  fallbackTarget: DubbingLanguage,
): DubLanguages {
  const target = isTarget(p.targetLanguage) ? p.targetLanguage : fallbackTarget;
  const source = isTarget(p.sourceLanguage) && p.sourceLanguage !== target ? p.sourceLanguage : "auto";
  return { target, source };
}

/** Remembered dubbing languages; undefined when nothing usable is stored. */
export function dubLanguagesOfStored(
  stored: unknown,
  fallbackTarget: DubbingLanguage,
): DubLanguages | undefined {
  const parsed = storedDub.safeParse(stored);
  return parsed.success ? dubLanguagesFrom(parsed.data, fallbackTarget) : undefined;
}
