import type { MediaClient } from "../../platform/media-service/client";
import {
  type DubbingInput,
  describeIssues,
  dubbingRequest,
  type ImageEditInput,
  type ImageGenerationInput,
  imageEditRequest,
  imageGenerationRequest,
  type Metadata,
  type VideoGenerationInput,
  videoGenerationRequest,
} from "../../platform/media-service/schemas";
import type { GenerationParams, InputRef } from "./params";

export type ServiceRequest =
  | { operation: "image"; body: ImageGenerationInput }
  | { operation: "edit"; body: ImageEditInput }
  | { operation: "video"; body: VideoGenerationInput }
  | { operation: "dub"; body: DubbingInput };

export type BuildResult = { ok: true; request: ServiceRequest } | { ok: false; problems: string[] };

const schemaOf = {
  image: imageGenerationRequest,
  edit: imageEditRequest,
  video: videoGenerationRequest,
  dub: dubbingRequest,
} as const;

/** The request body in the service's own words, before it is checked. */
function rawBody(
  p: GenerationParams,
  metadata: Metadata,
  urlOf: (ref: InputRef) => string,
): Record<string, unknown> {
  switch (p.operation) {
    case "image":
    case "edit":
      return {
        prompt: p.prompt,
        model: p.model,
        image_size: p.imageSize,
        resolution: p.resolution,
        num_images: p.numImages,
        ...(p.operation === "edit" ? { image_urls: p.images.map(urlOf) } : {}),
        metadata,
      };
    case "video":
      return {
        prompt: p.prompt,
        model: p.model,
        duration: p.duration,
        resolution: p.resolution,
        aspect_ratio: p.aspectRatio,
        generate_audio: p.generateAudio,
        web_search: p.webSearch,
        metadata,
      };
    case "dub":
      return {
        source_url: urlOf(p.source),
        target_language: p.targetLanguage,
        source_language: p.sourceLanguage,
        metadata,
      };
  }
}

/**
 * The service request for a generation, checked against the document's rules
 * before it leaves: a request the service would refuse is rejected here.
 * Telegram inputs become signed URLs of our file proxy (never a Telegram file URL).
 */
export function buildServiceRequest(
  p: GenerationParams,
  metadata: Metadata,
  urlOf: (ref: InputRef) => string,
): BuildResult {
  const parsed = schemaOf[p.operation].safeParse(rawBody(p, metadata, urlOf));
  if (!parsed.success) return { ok: false, problems: describeIssues(parsed.error) };
  return { ok: true, request: { operation: p.operation, body: parsed.data } as ServiceRequest };
}

export interface Registered {
  taskId: string;
  serviceCredits: number | null;
  measuredSeconds: number | null;
}

export async function sendServiceRequest(
  media: MediaClient,
  request: ServiceRequest,
  idempotencyKey: string,
): Promise<Registered> {
  const opts = { idempotencyKey };
  switch (request.operation) {
    case "image": {
      const r = await media.createImage(request.body, opts);
      return { taskId: r.id, serviceCredits: r.credits_reserved ?? null, measuredSeconds: null };
    }
    case "edit": {
      const r = await media.editImage(request.body, opts);
      return { taskId: r.id, serviceCredits: r.credits_reserved ?? null, measuredSeconds: null };
    }
    case "video": {
      const r = await media.createVideo(request.body, opts);
      return { taskId: r.id, serviceCredits: r.credits_reserved ?? null, measuredSeconds: null };
    }
    case "dub": {
      const r = await media.createDubbing(request.body, opts);
      return {
        taskId: r.id,
        serviceCredits: r.credits_reserved ?? null,
        measuredSeconds: r.duration_seconds ?? null,
      };
    }
  }
}
