import { describe, expect, it } from "vitest";
import {
  errorFromResponse,
  extractServiceError,
  parseRetryAfter,
} from "../../../src/platform/media-service/errors";

describe("error codes are read from the usual places", () => {
  it.each([
    [{ error: { code: "invalid_request", message: "bad duration" } }, "invalid_request", "bad duration"],
    [{ error: { type: "invalid_request_error", message: "m" } }, "invalid_request_error", "m"],
    [{ error: "invalid_request", message: "m" }, "invalid_request", "m"],
    [{ code: "invalid_request", message: "m" }, "invalid_request", "m"],
    [{ errors: [{ code: "x", message: "m" }] }, "x", "m"],
    [{ detail: "Not authenticated" }, undefined, "Not authenticated"],
    [{ detail: [{ msg: "field required", type: "missing" }] }, "missing", "field required"],
    [{ error: "Something went wrong" }, undefined, "Something went wrong"],
    ["Bad Gateway", undefined, "Bad Gateway"],
  ])("%j", (body, code, message) => {
    expect(extractServiceError(body)).toEqual({ ...(code && { code }), ...(message && { message }) });
  });
});

describe("errors are classified by status and code", () => {
  it.each([
    [400, { error: { code: "invalid_request" } }, "invalid_request", false],
    [422, {}, "invalid_request", false],
    [404, {}, "not_found", false],
    [405, {}, "not_found", false],
    [409, { error: { code: "idempotency_key_in_use" } }, "conflict", false],
    [401, {}, "unauthorized", false],
    [403, {}, "unauthorized", false],
    [402, {}, "payment_required", false],
    [400, { error: { code: "insufficient_credits" } }, "payment_required", false],
    [403, { code: "insufficient_balance" }, "payment_required", false],
    [429, {}, "rate_limited", true],
    [408, {}, "timeout", true],
    [500, {}, "server", true],
    [503, { error: { code: "insufficient_capacity" } }, "server", true],
  ] as const)("%i %j → %s", (status, body, kind, retryable) => {
    const e = errorFromResponse(status, body, undefined);
    expect(e).toMatchObject({ kind, retryable, status });
  });

  it("keeps the service's code and message", () => {
    const e = errorFromResponse(
      400,
      { error: { code: "invalid_request", message: "duration 40 > 15" } },
      undefined,
    );
    expect(e.code).toBe("invalid_request");
    expect(e.message).toContain("duration 40 > 15");
  });
});

describe("Retry-After", () => {
  it("seconds, dates, and nonsense", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
