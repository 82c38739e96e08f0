/**
 * Errors of the media service as the bot needs them: what kind, whether a
 * retry can help, and the service's own code and message when it gave one.
 * The error body shape is not documented, so codes are read from the usual
 * places (see ASSUMPTIONS.md).
 */

export type MediaErrorKind =
  | "invalid_request"
  | "unauthorized"
  | "payment_required"
  | "rate_limited"
  | "server"
  | "network"
  | "timeout"
  | "bad_response"
  /** 409: typically the same Idempotency-Key still in flight; the task may exist */
  | "conflict"
  /** 404/405/410 on a create: a wrong base URL or path, the operator's problem */
  | "not_found";

export interface MediaServiceErrorInit {
  kind: MediaErrorKind;
  message: string;
  status?: number | undefined;
  code?: string | undefined;
  retryable: boolean;
  retryAfterMs?: number | undefined;
  /** the parsed error body, for logs */
  body?: unknown;
  cause?: unknown;
}

export class MediaServiceError extends Error {
  readonly kind: MediaErrorKind;
  readonly status?: number | undefined;
  readonly code?: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs?: number | undefined;
  readonly body?: unknown;

  constructor(init: MediaServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "MediaServiceError";
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.retryable = init.retryable;
    this.retryAfterMs = init.retryAfterMs;
    this.body = init.body;
  }
}

interface ServiceErrorFields {
  code?: string;
  message?: string;
}

const asRecord = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

const asText = (v: unknown): string | undefined =>
  typeof v === "string" && v.length > 0 ? v : typeof v === "number" ? String(v) : undefined;

/**
 * Code and message from an error body of any common shape:
 * `{error:{code,message}}`, `{error:{type,message}}`, `{error:"code", message}`,
 * `{code, message}`, `{errors:[{code,message}]}`, `{detail:"..."}` or `{detail:[{msg}]}`, plain text.
 */
export function extractServiceError(body: unknown): ServiceErrorFields {
  if (typeof body === "string") return body.trim() ? { message: body.trim().slice(0, 500) } : {};
  const root = asRecord(body);
  if (!root) return {};
  const out: ServiceErrorFields = {};
  const take = (obj: Record<string, unknown> | undefined) => {
    if (!obj) return;
    out.code ??= asText(obj.code) ?? asText(obj.error_code) ?? asText(obj.type);
    out.message ??= asText(obj.message) ?? asText(obj.error_description) ?? asText(obj.msg);
  };
  const nested = asRecord(root.error);
  take(nested);
  if (typeof root.error === "string") {
    // `{error: "invalid_request", message: "..."}` or `{error: "a sentence"}`
    if (/^[a-z0-9_.-]+$/i.test(root.error)) out.code ??= root.error;
    else out.message ??= root.error;
  }
  take(root);
  if (Array.isArray(root.errors)) take(asRecord(root.errors[0]));
  if (typeof root.detail === "string") out.message ??= root.detail;
  if (Array.isArray(root.detail)) take(asRecord(root.detail[0]));
  return out;
}

const paymentCode = /insufficient|credit|balance|quota_exceeded|payment|billing/i;

/** Classifies a non-2xx answer. */
export function errorFromResponse(
  status: number,
  body: unknown,
  retryAfterMs: number | undefined,
): MediaServiceError {
  const { code, message } = extractServiceError(body);
  const describe = (fallback: string) => message ?? code ?? fallback;
  const base = { status, code, body, retryAfterMs };
  if (status === 402 || (code !== undefined && paymentCode.test(code) && status < 500)) {
    return new MediaServiceError({
      ...base,
      kind: "payment_required",
      retryable: false,
      message: `The media service refused for lack of credits (${status}): ${describe("payment required")}`,
    });
  }
  if (status === 401 || status === 403) {
    return new MediaServiceError({
      ...base,
      kind: "unauthorized",
      retryable: false,
      message: `The media service rejected the API key (${status}): ${describe("unauthorized")}`,
    });
  }
  if (status === 429) {
    return new MediaServiceError({
      ...base,
      kind: "rate_limited",
      retryable: true,
      message: `The media service is rate limiting (429): ${describe("too many requests")}`,
    });
  }
  if (status === 408) {
    return new MediaServiceError({
      ...base,
      kind: "timeout",
      retryable: true,
      message: `The media service timed out (408): ${describe("request timeout")}`,
    });
  }
  if (status >= 500) {
    return new MediaServiceError({
      ...base,
      kind: "server",
      retryable: true,
      message: `The media service failed (${status}): ${describe("server error")}`,
    });
  }
  if (status === 409) {
    return new MediaServiceError({
      ...base,
      kind: "conflict",
      retryable: false,
      message: `The media service reported a conflict (409): ${describe("conflict")}`,
    });
  }
  if (status === 404 || status === 405 || status === 410) {
    return new MediaServiceError({
      ...base,
      kind: "not_found",
      retryable: false,
      message: `The media service has no such endpoint (${status}): ${describe("not found")}; check MEDIA_API_URL`,
    });
  }
  return new MediaServiceError({
    ...base,
    kind: "invalid_request",
    retryable: false,
    message: `The media service rejected the request (${status}): ${describe("invalid request")}`,
  });
}

/** Retry-After as seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
