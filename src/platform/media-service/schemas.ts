import { z } from "zod";
import {
  type DurationRule,
  defaultImageModel,
  defaultImageSize,
  defaultVideoModel,
  dubbingLanguages,
  dubbingSourceLanguages,
  durationAllowed,
  type ImageModel,
  type ImageSize,
  imageModelInfo,
  imageModels,
  imageResolutions,
  imageSizes,
  isDurationList,
  isVideoModel,
  limits,
  type VideoAspectRatio,
  type VideoModel,
  type VideoResolution,
  videoAspectRatios,
  videoModelIds,
  videoModels,
  videoResolutions,
} from "./catalog";

/**
 * Request schemas enforce every rule of the document (a request that passes
 * here is one the service accepts). Response schemas are tolerant: unknown
 * fields are kept, unknown statuses preserved, odd values do not crash.
 */

// ---------------------------------------------------------------- common request fields

const codePoints = (s: string) => [...s].length;

/** 2.2: up to 16 keys, each value at most 500 characters (string values: see ASSUMPTIONS.md). */
export const metadata = z
  .record(
    z.string(),
    z
      .string({ error: "metadata values must be strings" })
      .refine((v) => codePoints(v) <= limits.metadataMaxValueLength, {
        error: `metadata values must be at most ${limits.metadataMaxValueLength} characters`,
      }),
  )
  .refine((m) => Object.keys(m).length <= limits.metadataMaxKeys, {
    error: `metadata must have at most ${limits.metadataMaxKeys} keys`,
  });
export type Metadata = z.output<typeof metadata>;

const prompt = z
  .string({ error: "prompt is required" })
  .refine((s) => s.trim().length > 0, { error: "prompt must not be empty" });

/** http(s) only; the document asks for public https, see ASSUMPTIONS.md for plain http. */
const downloadUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

// ---------------------------------------------------------------- images

const numImages = z
  .number({ error: "num_images must be an integer" })
  .int("num_images must be an integer")
  .min(limits.numImages.min, `num_images must be ${limits.numImages.min} to ${limits.numImages.max}`)
  .max(limits.numImages.max, `num_images must be ${limits.numImages.min} to ${limits.numImages.max}`);

const imageFields = {
  prompt,
  model: z.enum(imageModels, { error: `model must be one of ${imageModels.join(", ")}` }).optional(),
  image_size: z.enum(imageSizes, { error: `image_size must be one of ${imageSizes.join(", ")}` }).optional(),
  resolution: z
    .enum(imageResolutions, { error: `resolution must be one of ${imageResolutions.join(", ")}` })
    .optional(),
  num_images: numImages.optional(),
  metadata: metadata.optional(),
};

function checkMultipleOutputs(r: { model?: ImageModel; num_images?: number }, ctx: z.RefinementCtx): void {
  const model = r.model ?? defaultImageModel;
  if ((r.num_images ?? 1) > 1 && !imageModelInfo[model].multipleOutputs) {
    ctx.addIssue({ code: "custom", path: ["num_images"], message: `${model} makes one image per task` });
  }
}

export const imageGenerationRequest = z.object(imageFields).superRefine(checkMultipleOutputs);
export type ImageGenerationRequest = z.input<typeof imageGenerationRequest>;

export const imageEditRequest = z
  .object({
    ...imageFields,
    image_urls: z
      .array(downloadUrl, { error: "image_urls must be a list of URLs" })
      .min(1, "image_urls needs at least one reference image")
      .max(limits.editMaxImageUrls, `image_urls must have at most ${limits.editMaxImageUrls} URLs`),
  })
  .superRefine(checkMultipleOutputs);
export type ImageEditRequest = z.input<typeof imageEditRequest>;

/** The values a service applies to an image request, defaults filled in. */
export function resolveImageRequest(r: z.output<typeof imageGenerationRequest>): {
  model: ImageModel;
  imageSize: ImageSize;
  resolution: (typeof imageResolutions)[number];
  numImages: number;
} {
  const model = r.model ?? defaultImageModel;
  const honoursResolution = imageModelInfo[model].qualities.length > 0;
  return {
    model,
    imageSize: r.image_size ?? defaultImageSize,
    resolution: honoursResolution ? (r.resolution ?? "1K") : "1K",
    numImages: r.num_images ?? 1,
  };
}

// ---------------------------------------------------------------- video

export interface VideoRuleInput {
  model?: string | undefined;
  duration?: number | undefined;
  resolution?: string | undefined;
  aspect_ratio?: string | undefined;
  generate_audio?: boolean | undefined;
  web_search?: boolean | undefined;
}

export interface RuleIssue {
  path: string;
  message: string;
}

/** The per-model rules of 4.4; empty when the request is acceptable. Shared by client and simulator. */
export function validateVideoRequest(r: VideoRuleInput): RuleIssue[] {
  const model = r.model ?? defaultVideoModel;
  if (!isVideoModel(model)) {
    return [{ path: "model", message: `model must be one of ${videoModelIds.join(", ")}` }];
  }
  const info = videoModels[model];
  const issues: RuleIssue[] = [];
  if (r.duration !== undefined && !durationAllowed(model, r.duration)) {
    const rule: DurationRule = info.durations;
    const allowed = isDurationList(rule) ? `only ${rule.join(", ")}` : `${rule.min} to ${rule.max}`;
    issues.push({ path: "duration", message: `${model} accepts a duration of ${allowed} seconds` });
  }
  if (r.resolution !== undefined && !(info.resolutions as readonly string[]).includes(r.resolution)) {
    issues.push({
      path: "resolution",
      message: `${model} accepts resolution ${info.resolutions.join(", ")}`,
    });
  }
  if (r.aspect_ratio !== undefined && !(info.aspectRatios as readonly string[]).includes(r.aspect_ratio)) {
    issues.push({
      path: "aspect_ratio",
      message: `${model} accepts aspect_ratio ${info.aspectRatios.join(", ")}`,
    });
  }
  if (r.generate_audio === true && !info.audio) {
    issues.push({ path: "generate_audio", message: "generate_audio is only for the video-b family" });
  }
  if (r.web_search === true && !info.webSearch) {
    issues.push({ path: "web_search", message: "web_search is only for the video-b family" });
  }
  return issues;
}

export const videoGenerationRequest = z
  .object({
    prompt,
    model: z.enum(videoModelIds, { error: `model must be one of ${videoModelIds.join(", ")}` }).optional(),
    duration: z
      .number({ error: "duration must be an integer number of seconds" })
      .int("duration must be an integer number of seconds")
      .optional(),
    // "4K" as in the model table is sent as the parameter's documented "4k"
    resolution: z
      .enum([...videoResolutions, "4K"], {
        error: `resolution must be one of ${videoResolutions.join(", ")}`,
      })
      .transform((v) => v.toLowerCase() as VideoResolution)
      .optional(),
    aspect_ratio: z
      .enum(videoAspectRatios, { error: `aspect_ratio must be one of ${videoAspectRatios.join(", ")}` })
      .optional(),
    generate_audio: z.boolean({ error: "generate_audio must be true or false" }).optional(),
    web_search: z.boolean({ error: "web_search must be true or false" }).optional(),
    metadata: metadata.optional(),
  })
  .superRefine((r, ctx) => {
    for (const issue of validateVideoRequest(r)) {
      ctx.addIssue({ code: "custom", path: [issue.path], message: issue.message });
    }
  });
export type VideoGenerationRequest = z.input<typeof videoGenerationRequest>;

/** A video request with every choice made: what the service applies, and what the bot's panel edits. */
export interface ResolvedVideoRequest {
  model: VideoModel;
  duration: number;
  resolution: VideoResolution;
  aspectRatio: VideoAspectRatio;
  generateAudio: boolean;
  webSearch: boolean;
}

/** The values a service applies to a (valid) video request, defaults filled in. */
export function resolveVideoRequest(r: z.output<typeof videoGenerationRequest>): ResolvedVideoRequest {
  const model = r.model ?? defaultVideoModel;
  const info = videoModels[model];
  return {
    model,
    duration: r.duration ?? info.defaultDuration,
    resolution: r.resolution ?? info.defaultResolution,
    aspectRatio: r.aspect_ratio ?? info.defaultAspectRatio,
    generateAudio: r.generate_audio ?? false,
    webSearch: r.web_search ?? false,
  };
}

// ---------------------------------------------------------------- dubbing

export const dubbingRequest = z
  .object({
    source_url: downloadUrl,
    target_language: z.enum(dubbingLanguages, {
      error: `target_language must be one of ${dubbingLanguages.join(", ")}`,
    }),
    source_language: z
      .enum(dubbingSourceLanguages, {
        error: `source_language must be auto or one of ${dubbingLanguages.join(", ")}`,
      })
      .optional(),
    metadata: metadata.optional(),
  })
  .refine((r) => r.source_language !== r.target_language, {
    path: ["source_language"],
    error: "source_language must differ from target_language",
  });
export type DubbingRequest = z.input<typeof dubbingRequest>;

// ---------------------------------------------------------------- responses (tolerant)

const taskId = z.union([z.string().min(1), z.number()]).transform(String);
const looseString = z.string().optional().catch(undefined);
const looseNumber = z.number().optional().catch(undefined);

/** Output lists: absent/null → [], a single URL → [url], objects with a url field → their url. */
const outputList = z.preprocess((value) => {
  const items = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  const urls: string[] = [];
  for (const item of items) {
    if (typeof item === "string" && item.length > 0) urls.push(item);
    else if (item && typeof item === "object" && "url" in item && typeof item.url === "string") {
      urls.push(item.url);
    }
  }
  return urls;
}, z.array(z.string()));

const looseMetadata = z.record(z.string(), z.unknown()).optional().catch(undefined);

export const registrationResponse = z.looseObject({
  id: taskId,
  status: z.string().catch("pending"),
  model: looseString,
  credits_reserved: looseNumber,
  created_at: looseString,
});
export type RegistrationResponse = z.output<typeof registrationResponse>;

export const dubbingRegistrationResponse = registrationResponse.extend({
  type: looseString,
  target_language: looseString,
  source_language: looseString,
  duration_seconds: looseNumber,
  metadata: looseMetadata,
});
export type DubbingRegistrationResponse = z.output<typeof dubbingRegistrationResponse>;

export const task = z.looseObject({
  id: taskId,
  status: z.string().catch("unknown"),
  type: looseString,
  model: looseString,
  prompt: looseString,
  images: outputList,
  videos: outputList,
  audios: outputList,
  error: z.unknown().optional(),
  credits_reserved: looseNumber,
  credits_deducted: z.boolean().optional().catch(undefined),
  metadata: looseMetadata,
  created_at: looseString,
  completed_at: z.string().nullish().catch(undefined),
});
export type Task = z.output<typeof task>;

export type ImageGenerationInput = z.output<typeof imageGenerationRequest>;
export type ImageEditInput = z.output<typeof imageEditRequest>;
export type VideoGenerationInput = z.output<typeof videoGenerationRequest>;
export type DubbingInput = z.output<typeof dubbingRequest>;

/** zod issues as "path: message" lines, for error messages. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((i) => (i.path.length > 0 ? `${i.path.join(".")}: ${i.message}` : i.message));
}
