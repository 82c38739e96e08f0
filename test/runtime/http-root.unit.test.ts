import { afterEach, describe, expect, test, vi } from "vitest";
import { createLogger } from "../../src/platform/lib/logger";
import { createMetrics } from "../../src/platform/metrics/metrics";
import { rootApp } from "../../src/runtime/http/root";
import { captureLogs } from "../support/log-capture";

describe("the HTTP root app", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test("an error escaping a route is logged through the scrubbed logger, not printed to stderr", async () => {
    const { logger, lines } = captureLogs();
    const printed = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const app = rootApp(logger);
    app.get("/hooks/:secret", () => {
      throw new Error(
        "call to https://api.telegram.org/bot123456789:AAEabcdefghijklmnopqrstuvwxyz0123 failed",
      );
    });
    const res = await app.request("/hooks/the-path-secret");
    expect(res.status).toBe(500);
    expect(printed).not.toHaveBeenCalled();
    const errors = lines.filter((l) => l.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: "http: request failed", route: "/hooks/:secret" });
    const all = JSON.stringify(lines);
    expect(all).not.toContain("AAEabcdefghijklmnopqrstuvwxyz0123");
    expect(all).not.toContain("the-path-secret");
  });

  test("each request gets an access log line with a request id the caller sees; probes only at debug", async () => {
    const { logger, lines } = captureLogs();
    const app = rootApp(logger);
    app.post("/webhooks/media/:secret", (c) => c.json({ ok: true }));
    app.get("/healthz", (c) => c.json({ ok: true }));
    const res = await app.request("/webhooks/media/the-path-secret", { method: "POST" });
    await app.request("/healthz");
    const id = res.headers.get("x-request-id");
    expect(id).toBeTruthy();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: "http",
        requestId: id,
        method: "POST",
        route: "/webhooks/media/:secret",
        status: 200,
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain("the-path-secret");
  });

  test("every answer is counted and timed by method, route pattern and status, never by path", async () => {
    const metrics = createMetrics();
    const app = rootApp(createLogger("silent"), metrics);
    app.post("/webhooks/media/:secret", (c) => c.json({ ok: true }));
    app.get("/boom", () => {
      throw new Error("boom");
    });
    for (const secret of ["first-path-secret", "second-path-secret"])
      await app.request(`/webhooks/media/${secret}`, { method: "POST" });
    await app.request("/boom");
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'msb_http_requests_total{method="POST",route="/webhooks/media/:secret",status="200"} 2',
    );
    expect(text).toContain('msb_http_requests_total{method="GET",route="/boom",status="500"} 1');
    expect(text).toMatch(
      /msb_http_request_duration_seconds_count\{method="POST",route="\/webhooks\/media\/:secret",status="200"\} 2/,
    );
    expect(text).not.toContain("path-secret");
  });
});
