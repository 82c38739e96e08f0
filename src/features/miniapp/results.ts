import { holdCosts } from "../../domain/credits/hold-costs";
import { describeParams, type GenerationParams, upscalePrompt } from "../../domain/generations/params";
import type { GenerationReads } from "../../domain/generations/reads";
import type { Generation } from "../../domain/generations/types";
import { upscaleModel } from "../../domain/generations/upscale";
import type { Prices } from "../../domain/pricing/prices";
import type { Database } from "../../platform/db/client";
import type { TranslateFor } from "../../platform/i18n/i18n";
import { limits } from "../../platform/media-service/catalog";
import type { MediaStore } from "../../platform/storage/stored-file";
import type {
  AppInput,
  PresetQuery,
  PresetResponse,
  ResultOptions,
  ResultResponse,
  ResultSummary,
} from "./contract";
import type { KeptInputs } from "./inputs";
import { type GalleryLinks, mediaOf } from "./media-links";

export interface ResultsDeps {
  db: Database;
  generations: Pick<GenerationReads, "get" | "paramsOf" | "deliveredWithFiles">;
  store: Pick<MediaStore, "outputsOf">;
  links: GalleryLinks;
  t: TranslateFor;
}

const isPicture = (g: Generation) => g.operation === "image" || g.operation === "edit";

function paramsOrUndefined(deps: ResultsDeps, g: Generation): GenerationParams | undefined {
  try {
    return deps.generations.paramsOf(g);
  } catch {
    return undefined;
  }
}

/** A result as the gallery shows it: its words in the user's language, its cost, its files by signed link. */
async function summaryOf(
  deps: ResultsDeps,
  g: Generation,
  language: string,
  cost: number,
): Promise<ResultSummary> {
  const params = paramsOrUndefined(deps, g);
  return {
    id: g.id,
    operation: g.operation,
    createdAt: g.createdAt.toISOString(),
    prompt: params ? describeParams(params, (key, vars) => deps.t(language, key, vars)) : "",
    cost,
    media: mediaOf(await deps.store.outputsOf(g.id), deps.links),
  };
}

/** What the result cost: what was charged for it, less what a refund gave back (the ledger's reading, as /history). */
async function costsOf(deps: ResultsDeps, rows: Generation[]): Promise<Map<string, number>> {
  const costs = await holdCosts(
    deps.db,
    rows.map((g) => g.holdKey),
  );
  return new Map(
    rows.map((g) => {
      const c = costs.get(g.holdKey);
      return [g.id, c?.kind === "charged" ? Math.max(0, c.amount - c.refunded) : 0];
    }),
  );
}

/** The caller's delivered results, newest first, a page at a time (the cursor is the last id of a page). */
export async function galleryPage(
  deps: ResultsDeps,
  userId: number,
  language: string,
  query: { operation?: Generation["operation"] | undefined; before?: string | undefined; limit: number },
) {
  const rows = await deps.generations.deliveredWithFiles(userId, {
    limit: query.limit + 1,
    ...(query.operation ? { operation: query.operation } : {}),
    ...(query.before ? { before: query.before } : {}),
  });
  const page = rows.slice(0, query.limit);
  const costs = await costsOf(deps, page);
  const items = await Promise.all(page.map((g) => summaryOf(deps, g, language, costs.get(g.id) ?? 0)));
  return { items, next: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null };
}

/** One of the caller's own delivered results; undefined for anything else (another user's is as unknown). */
export async function ownResult(deps: Pick<ResultsDeps, "generations">, userId: number, id: string) {
  const g = await deps.generations.get(id);
  if (!g || g.userId !== userId || g.state !== "delivered" || (g.fileIds?.length ?? 0) === 0)
    return undefined;
  return g;
}

function optionsOf(p: GenerationParams | undefined): ResultOptions {
  if (!p) return {};
  switch (p.operation) {
    case "image":
    case "edit":
      return {
        model: p.model,
        imageSize: p.imageSize,
        ...(p.resolution ? { resolution: p.resolution } : {}),
        numImages: p.numImages,
      };
    case "video":
      return {
        model: p.model,
        duration: p.duration,
        resolution: p.resolution,
        aspectRatio: p.aspectRatio,
        ...(p.generateAudio !== undefined ? { generateAudio: p.generateAudio } : {}),
        ...(p.webSearch !== undefined ? { webSearch: p.webSearch } : {}),
      };
    case "dub":
      return { sourceLanguage: p.sourceLanguage, targetLanguage: p.targetLanguage };
  }
}

/** A result in full: the gallery's view, the options it was made with, and which actions it has. */
export async function resultView(
  deps: ResultsDeps,
  g: Generation,
  language: string,
): Promise<ResultResponse> {
  const params = paramsOrUndefined(deps, g);
  const costs = await costsOf(deps, [g]);
  const picture = isPicture(g);
  return {
    ...(await summaryOf(deps, g, language, costs.get(g.id) ?? 0)),
    options: optionsOf(params),
    upscale: params?.operation === "edit" && params.prompt === upscalePrompt,
    actions: { again: params !== undefined, edit: picture, upscale: picture },
  };
}

export interface PresetDeps {
  generations: Pick<GenerationReads, "paramsOf">;
  prices: Prices;
  inputs: Pick<KeptInputs, "keep">;
}

/** A request's own inputs (Telegram files or a link) as inputs the composer may name: kept for the caller. */
async function keptAs(
  deps: PresetDeps,
  userId: number,
  ref: Extract<GenerationParams, { operation: "dub" }>["source"],
  media: "photo" | "audio" | "video",
  durationSeconds?: number,
): Promise<AppInput> {
  const id = await deps.inputs.keep({
    userId,
    ref: ref.kind === "telegram" ? { kind: "telegram", fileId: ref.fileId } : { kind: "url", url: ref.url },
    media,
    ...(durationSeconds !== undefined ? { durationSeconds } : {}),
  });
  return { kind: "upload", id };
}

/**
 * The composer as the buttons under a result in the chat set their panel
 * (result-actions.ts): again the same request; edit its pictures (up to the
 * edit limit) at their aspect ratio; a 4K version of one picture with the
 * model upscaleModel picks. Undefined when the action does not apply.
 */
export async function presetOf(
  deps: PresetDeps,
  g: Generation,
  userId: number,
  query: Required<PresetQuery>,
): Promise<PresetResponse | undefined> {
  const params = deps.generations.paramsOf(g);
  const ratio = params.operation === "image" || params.operation === "edit" ? params.imageSize : undefined;
  const picture = (i: number): AppInput => ({ kind: "result", id: g.id, picture: i });
  switch (query.action) {
    case "again": {
      const { v: _v, ...request } = params;
      if (request.operation === "edit") {
        const images = await Promise.all(request.images.map((ref) => keptAs(deps, userId, ref, "photo")));
        return {
          operation: "edit",
          request: { ...request, images },
          upscale: request.prompt === upscalePrompt,
        };
      }
      if (request.operation === "dub") {
        const { source, kind, durationSeconds, ...rest } = request;
        const media = kind ?? "audio";
        return {
          operation: "dub",
          request: { ...rest, source: await keptAs(deps, userId, source, media, durationSeconds) },
          upscale: false,
        };
      }
      return { operation: request.operation, request, upscale: false };
    }
    case "edit": {
      if (!isPicture(g)) return undefined;
      const count = Math.min(g.fileIds?.length ?? 0, limits.editMaxImageUrls);
      const images = Array.from({ length: count }, (_, i) => picture(i));
      return {
        operation: "edit",
        request: { images, ...(ratio ? { imageSize: ratio } : {}) },
        upscale: false,
      };
    }
    case "upscale": {
      if (!isPicture(g) || !g.fileIds?.[query.picture]) return undefined;
      const model = upscaleModel(deps.prices);
      return {
        operation: "edit",
        request: {
          images: [picture(query.picture)],
          prompt: upscalePrompt,
          ...(model ? { model, resolution: "4K", numImages: 1 } : {}),
          ...(ratio ? { imageSize: ratio } : {}),
        },
        upscale: true,
      };
    }
  }
}
