import type { z } from "zod";
import type { Logger } from "../lib/logger";
import { backoffDelay } from "./backoff";
import { errorFromResponse, MediaServiceError, parseRetryAfter } from "./errors";
import {
  type DubbingRegistrationResponse,
  type DubbingRequest,
  describeIssues,
  dubbingRegistrationResponse,
  dubbingRequest,
  type ImageEditRequest,
  type ImageGenerationRequest,
  imageEditRequest,
  imageGenerationRequest,
  type RegistrationResponse,
  registrationResponse,
  type Task,
  task,
  type VideoGenerationRequest,
  videoGenerationRequest,
} from "./schemas";

export { MediaServiceError } from "./errors";

export interface MediaClientOptions {
  baseUrl: string;
  apiKey: string;
  /** per HTTP attempt; default 30 s */
  timeoutMs?: number;
  /** extra attempts after the first, for connection failures, 429 and 5xx; default 3 */
  maxRetries?: number;
  /** first backoff step; doubles per attempt, with jitter; default 500 ms */
  retryBaseMs?: number;
  /** longest wait between attempts; a longer Retry-After is handed to the caller instead; default 30 s */
  retryMaxMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  logger?: Pick<Logger, "warn">;
}

export interface CreateOptions {
  /** sent as Idempotency-Key; keep it the same when repeating the same request */
  idempotencyKey: string;
  signal?: AbortSignal;
}

export interface MediaClient {
  createImage(req: ImageGenerationRequest, opts: CreateOptions): Promise<RegistrationResponse>;
  editImage(req: ImageEditRequest, opts: CreateOptions): Promise<RegistrationResponse>;
  createVideo(req: VideoGenerationRequest, opts: CreateOptions): Promise<RegistrationResponse>;
  createDubbing(req: DubbingRequest, opts: CreateOptions): Promise<DubbingRegistrationResponse>;
  getTask(id: string, opts?: { signal?: AbortSignal }): Promise<Task>;
}

/** The lookup path of a task; ids may contain `::` and are URL-component encoded. */
function taskPath(id: string): string {
  return `/api/v1/tasks/${encodeURIComponent(id)}`;
}

interface Call<T> {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal | undefined;
  response: z.ZodType<T>;
}

export function createMediaClient(opts: MediaClientOptions): MediaClient {
  const baseUrl = opts.baseUrl.replace(/\/+$/, "");
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxRetries = opts.maxRetries ?? 3;
  const retryBaseMs = opts.retryBaseMs ?? 500;
  const retryMaxMs = opts.retryMaxMs ?? 30_000;
  const doFetch = opts.fetch ?? fetch;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = opts.random ?? Math.random;

  async function attempt<T>(call: Call<T>): Promise<T> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = call.signal ? AbortSignal.any([timeout.signal, call.signal]) : timeout.signal;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${opts.apiKey}`,
      Accept: "application/json",
    };
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    if (call.idempotencyKey !== undefined) headers["Idempotency-Key"] = call.idempotencyKey;
    let response: Response;
    let text: string;
    try {
      response = await doFetch(`${baseUrl}${call.path}`, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal,
      });
      text = await response.text();
    } catch (cause) {
      if (call.signal?.aborted) throw cause;
      if (timeout.signal.aborted) {
        throw new MediaServiceError({
          kind: "timeout",
          retryable: true,
          message: `No answer from the media service within ${timeoutMs} ms (${call.method} ${call.path})`,
          cause,
        });
      }
      throw new MediaServiceError({
        kind: "network",
        retryable: true,
        message: `Could not reach the media service (${call.method} ${call.path}): ${describeCause(cause)}`,
        cause,
      });
    } finally {
      clearTimeout(timer);
    }
    const body = parseBody(text);
    if (!response.ok) {
      throw errorFromResponse(response.status, body, parseRetryAfter(response.headers.get("retry-after")));
    }
    const parsed = call.response.safeParse(body);
    if (!parsed.success) {
      throw new MediaServiceError({
        kind: "bad_response",
        status: response.status,
        retryable: false,
        body,
        message: `Unexpected answer from the media service (${call.method} ${call.path}): ${describeIssues(parsed.error).join("; ")}`,
      });
    }
    return parsed.data;
  }

  /** Creates retry only where no task can have been made twice or the key makes it safe. */
  function shouldRetry(call: Call<unknown>, error: MediaServiceError): boolean {
    if (error.kind === "timeout" && error.status === undefined) return call.method === "GET";
    return error.retryable;
  }

  async function send<T>(call: Call<T>): Promise<T> {
    for (let n = 0; ; n++) {
      try {
        return await attempt(call);
      } catch (error) {
        if (!(error instanceof MediaServiceError) || n >= maxRetries || !shouldRetry(call, error))
          throw error;
        const wait = Math.max(backoffDelay(n, retryBaseMs, retryMaxMs, random), error.retryAfterMs ?? 0);
        if (wait > retryMaxMs) throw error;
        opts.logger?.warn(
          { path: call.path, status: error.status, kind: error.kind, attempt: n + 1, waitMs: wait },
          "media service call failed, retrying",
        );
        await sleep(wait);
        if (call.signal?.aborted) throw error;
      }
    }
  }

  function validated<S extends z.ZodType>(schema: S, req: unknown): z.output<S> {
    const parsed = schema.safeParse(req);
    if (!parsed.success) {
      const issues = describeIssues(parsed.error);
      throw new MediaServiceError({
        kind: "invalid_request",
        code: "invalid_request",
        retryable: false,
        message: `The request breaks the service's rules: ${issues.join("; ")}`,
        body: { issues },
      });
    }
    return parsed.data;
  }

  async function create<S extends z.ZodType, T>(
    path: string,
    schema: S,
    response: z.ZodType<T>,
    req: unknown,
    o: CreateOptions,
  ): Promise<T> {
    if (!o?.idempotencyKey) throw new TypeError(`POST ${path} needs an idempotencyKey`);
    const body = validated(schema, req);
    return send({ method: "POST", path, body, idempotencyKey: o.idempotencyKey, signal: o.signal, response });
  }

  return {
    createImage: (req, o) =>
      create("/api/v1/images/generations", imageGenerationRequest, registrationResponse, req, o),
    editImage: (req, o) => create("/api/v1/images/edits", imageEditRequest, registrationResponse, req, o),
    createVideo: (req, o) =>
      create("/api/v1/videos/generations", videoGenerationRequest, registrationResponse, req, o),
    createDubbing: (req, o) =>
      create("/api/v1/audio/dubbing", dubbingRequest, dubbingRegistrationResponse, req, o),
    getTask: (id, o) => {
      if (!id) throw new TypeError("getTask needs a task id");
      return send({ method: "GET", path: taskPath(id), signal: o?.signal, response: task });
    },
  };
}

function parseBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : "";
    return `${cause.message}${inner}`;
  }
  return String(cause);
}
