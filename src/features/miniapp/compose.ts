import type { DubInputRules } from "../../domain/generations/inputs";
import { type GenerationParamsInput, generationParams } from "../../domain/generations/params";
import { type PricedRequest, quote } from "../../domain/generations/quote";
import { buildServiceRequest } from "../../domain/generations/service-request";
import type { Prices } from "../../domain/pricing/prices";
import type { AppInput, ComposeRequest, QuoteRequest } from "./contract";
import { type InputDeps, type ResolvedInput, resolveInput } from "./inputs";

export type Composed =
  | { ok: true; params: GenerationParamsInput }
  | { ok: false; error: "not_found" }
  | { ok: false; error: "invalid"; message: string };

/** Stands in for our file proxy's links while a request is only checked: the service's rules need a link, not which one. */
const anyLink = "https://example.invalid/file";
const checkMetadata = { gid: "00000000-0000-4000-8000-000000000000", sig: "0".repeat(32), user: "0" };

async function inputsOf(deps: InputDeps, userId: number, inputs: AppInput[]) {
  const resolved: ResolvedInput[] = [];
  for (const input of inputs) {
    const r = await resolveInput(deps, userId, input);
    if (!r) return undefined;
    resolved.push(r);
  }
  return resolved;
}

/**
 * The composer's request as generation params, its inputs resolved to the
 * caller's own files, then checked by the rules every request meets before it
 * is sent (buildServiceRequest): what the service would refuse is refused here.
 */
export async function composeParams(
  deps: InputDeps & { dubRules: Pick<DubInputRules, "maxSeconds"> },
  userId: number,
  request: ComposeRequest,
): Promise<Composed> {
  let params: GenerationParamsInput;
  switch (request.operation) {
    case "image":
    case "video":
      params = request;
      break;
    case "edit": {
      const images = await inputsOf(deps, userId, request.images);
      if (!images) return { ok: false, error: "not_found" };
      if (images.some((i) => i.media !== "photo"))
        return { ok: false, error: "invalid", message: "images: pictures only" };
      params = { ...request, images: images.map((i) => i.ref) };
      break;
    }
    case "dub": {
      const [source] = (await inputsOf(deps, userId, [request.source])) ?? [];
      if (!source) return { ok: false, error: "not_found" };
      if (source.media === "photo")
        return { ok: false, error: "invalid", message: "source: audio or video only" };
      if (source.durationSeconds !== undefined && source.durationSeconds > deps.dubRules.maxSeconds)
        return {
          ok: false,
          error: "invalid",
          message: `source: longer than ${deps.dubRules.maxSeconds} seconds`,
        };
      params = {
        operation: "dub",
        source: source.ref,
        targetLanguage: request.targetLanguage,
        sourceLanguage: request.sourceLanguage ?? "auto",
        kind: source.media,
        ...(source.durationSeconds !== undefined ? { durationSeconds: source.durationSeconds } : {}),
      };
      break;
    }
  }
  const parsed = generationParams.safeParse(params);
  if (!parsed.success)
    return { ok: false, error: "invalid", message: parsed.error.issues[0]?.message ?? "invalid" };
  const built = buildServiceRequest(parsed.data, checkMetadata, () => anyLink);
  if (!built.ok) return { ok: false, error: "invalid", message: built.problems.join("; ") };
  return { ok: true, params };
}

/** What a quote request prices at `prices` (the caller's): the chat's one quote function, a dubbing at its source's length (unknown: the maximum). */
export async function priceOf(
  deps: InputDeps,
  prices: Prices,
  userId: number,
  request: QuoteRequest["request"],
): Promise<{ ok: true; credits: number | null; upTo: boolean } | { ok: false; error: "not_found" }> {
  let priced: PricedRequest;
  if (request.operation === "dub") {
    const source = request.source ? await resolveInput(deps, userId, request.source) : undefined;
    if (request.source && !source) return { ok: false, error: "not_found" };
    priced = { operation: "dub", durationSeconds: source?.durationSeconds };
  } else priced = request;
  const q = quote(prices, priced);
  return { ok: true, credits: q.ok ? q.credits : null, upTo: q.ok && q.upTo === true };
}
