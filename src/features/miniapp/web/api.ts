import { apiPaths, authorizationHeader, uploadFieldName } from "../api-paths";
import type {
  ApiError,
  BroadcastsResponse,
  BuyRequest,
  BuyResponse,
  ComposerResponse,
  CreditsResponse,
  DraftResponse,
  EraseRequest,
  EraseResponse,
  GalleryQuery,
  GalleryResponse,
  GenerateRequest,
  GenerateResponse,
  MeResponse,
  PresetQuery,
  PresetResponse,
  QuoteRequest,
  QuoteResponse,
  ReportsResponse,
  RequestStatusResponse,
  ResendResponse,
  ResultResponse,
  StatsResponse,
  UploadResponse,
} from "../contract";

/**
 * The API's answers are typed by the contract the server validates with; the page
 * trusts its own server and does not carry zod to check them again (it would
 * weigh more than the rest of the page).
 */

/** A refusal the API explained (`body`), or no answer at all (status 0). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | undefined,
  ) {
    super(body?.error ?? `HTTP ${status}`);
  }
}

export function createApi(initData: string) {
  const auth = authorizationHeader(initData);
  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(path, { ...init, headers: { ...init.headers, authorization: auth } });
    } catch {
      throw new ApiFailure(0, undefined);
    }
    const body = (await response.json().catch(() => undefined)) as unknown;
    if (!response.ok) throw new ApiFailure(response.status, body as ApiError | undefined);
    return body as T;
  }
  const post = <T>(path: string, body: unknown) =>
    call<T>(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const query = (params: Record<string, string | number | undefined>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params))
      if (value !== undefined) search.set(key, String(value));
    const text = search.toString();
    return text ? `?${text}` : "";
  };

  return {
    me: () => call<MeResponse>(apiPaths.me),
    gallery: (q: GalleryQuery) => call<GalleryResponse>(apiPaths.gallery + query({ ...q })),
    result: (id: string) => call<ResultResponse>(apiPaths.result(id)),
    resend: (id: string) => post<ResendResponse>(apiPaths.resend(id), {}),
    preset: (id: string, q: PresetQuery) => call<PresetResponse>(apiPaths.preset(id) + query({ ...q })),
    composer: () => call<ComposerResponse>(apiPaths.composer),
    quote: (request: QuoteRequest["request"]) => post<QuoteResponse>(apiPaths.quote, { request }),
    upload(file: File) {
      const form = new FormData();
      form.append(uploadFieldName, file);
      return call<UploadResponse>(apiPaths.uploads, { method: "POST", body: form });
    },
    newDraft: () => post<DraftResponse>(apiPaths.drafts, {}),
    generate: (body: GenerateRequest) => post<GenerateResponse>(apiPaths.generate, body),
    request: (id: string) => call<RequestStatusResponse>(apiPaths.request(id)),
    credits: () => call<CreditsResponse>(apiPaths.credits),
    buy: (body: BuyRequest) => post<BuyResponse>(apiPaths.buy, body),
    erase: () => post<EraseResponse>(apiPaths.erase, { confirm: true } satisfies EraseRequest),
    stats: (days: number) => call<StatsResponse>(apiPaths.adminStats + query({ days })),
    broadcasts: () => call<BroadcastsResponse>(apiPaths.adminBroadcasts),
    reports: () => call<ReportsResponse>(apiPaths.adminReports),
  };
}

export type Api = ReturnType<typeof createApi>;
