import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import type { Logger } from "../../platform/lib/logger";
import type { Metrics } from "../../platform/metrics/metrics";

/** health checks and scrapes come every few seconds: not worth an info line each */
const probes = new Set(["/healthz", "/readyz", "/metrics"]);
/** Telegram's update posts: one per update, each with its own log lines by update id; an answered one only at debug */
const updatePosts = "/telegram";

/**
 * The HTTP server's root app. An error that escapes a route would otherwise be
 * printed by Hono's default handler to stderr, outside the scrubbed logger (and
 * with whatever secret the error quotes): here it is logged through the logger,
 * by route pattern (a path may hold a secret), and answered with a bare 500.
 */
export function rootApp(logger: Logger, metrics?: Pick<Metrics, "httpRequests" | "httpSeconds">): Hono {
  const app = new Hono();
  // an access log line per request, with an id the caller sees too (X-Request-Id);
  // by route pattern, never the path (a path may hold a secret); probes and answered updates only at debug
  app.use("*", requestId());
  app.use("*", async (c, next) => {
    const started = performance.now();
    await next();
    const line = {
      requestId: c.get("requestId"),
      method: c.req.method,
      route: c.req.routePath,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    };
    const labels = { method: line.method, route: line.route, status: String(line.status) };
    metrics?.httpRequests.inc(labels);
    metrics?.httpSeconds.observe(labels, line.ms / 1000);
    if (probes.has(c.req.routePath) || (c.req.routePath === updatePosts && line.status < 300))
      logger.debug(line, "http");
    else logger.info(line, "http");
  });
  app.onError((err, c) => {
    // a deliberate answer (e.g. basic auth's 401) is not a failure
    if (err instanceof HTTPException) return err.getResponse();
    logger.error(
      { err, requestId: c.get("requestId"), method: c.req.method, route: c.req.routePath },
      "http: request failed",
    );
    return c.json({ error: "internal" }, 500);
  });
  return app;
}
