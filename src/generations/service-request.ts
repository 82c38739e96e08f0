import type { MediaClient } from "../media/client";
import {
  describeIssues,
  dubbingRequest,
  imageEditRequest,
  imageGenerationRequest,
  type Metadata,
  videoGenerationRequest,
} from "../media/schemas";
import type { GenerationParams, InputRef } from "./params";

export type ServiceRequest =
  | { operation: "image"; body: ReturnType<typeof imageGenerationRequest.parse> }
  | { operation: "edit"; body: ReturnType<typeof imageEditRequest.parse> }
  | { operation: "video"; body: ReturnType<typeof videoGenerationRequest.parse> }
  | { operation: "dub"; body: ReturnType<typeof dubbingRequest.parse> };

export type BuildResult = { ok: true; request: ServiceRequest } | { ok: false; problems: string[] };

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
  const check = <T>(
    schema: {
      safeParse(v: unknown): { success: true; data: T } | { success: false; error: import("zod").ZodError };
    },
    v: unknown,
  ) => {
    const r = schema.safeParse(v);
    return r.success
      ? { ok: true as const, data: r.data }
      : { ok: false as const, problems: describeIssues(r.error) };
  };
  switch (p.operation) {
    case "image": {
      const r = check(imageGenerationRequest, {
        prompt: p.prompt,
        model: p.model,
        image_size: p.imageSize,
        resolution: p.resolution,
        num_images: p.numImages,
        metadata,
      });
      return r.ok ? { ok: true, request: { operation: "image", body: r.data } } : r;
    }
    case "edit": {
      const r = check(imageEditRequest, {
        prompt: p.prompt,
        model: p.model,
        image_size: p.imageSize,
        resolution: p.resolution,
        num_images: p.numImages,
        image_urls: p.images.map(urlOf),
        metadata,
      });
      return r.ok ? { ok: true, request: { operation: "edit", body: r.data } } : r;
    }
    case "video": {
      const r = check(videoGenerationRequest, {
        prompt: p.prompt,
        model: p.model,
        duration: p.duration,
        resolution: p.resolution,
        aspect_ratio: p.aspectRatio,
        generate_audio: p.generateAudio,
        web_search: p.webSearch,
        metadata,
      });
      return r.ok ? { ok: true, request: { operation: "video", body: r.data } } : r;
    }
    case "dub": {
      const r = check(dubbingRequest, {
        source_url: urlOf(p.source),
        target_language: p.targetLanguage,
        source_language: p.sourceLanguage,
        metadata,
      });
      return r.ok ? { ok: true, request: { operation: "dub", body: r.data } } : r;
    }
  }
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
