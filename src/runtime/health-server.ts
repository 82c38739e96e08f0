import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import { keepConnectionUsable } from "./http/early-answers";
import { healthRoutes } from "./http/health";
import { rootApp } from "./http/root";
import type { Readiness } from "./readiness";
import type { Services } from "./services";
import { phase, type StopPhases } from "./stop-phases";

/** The worker role's own HTTP server: `/healthz`, `/readyz` and its own `/metrics`. */
export async function startHealthServer(s: Services, readiness: Readiness, stops: StopPhases) {
  const app = rootApp(s.logger, s.metrics);
  app.route(
    "/",
    healthRoutes({
      db: s.db,
      redis: s.redis,
      queues: s.queues.all,
      metrics: s.metrics,
      parts: readiness.snapshot,
    }),
  );
  const server = await listen(app, s.config.http);
  stops.onStop(phase.intake, () => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://127.0.0.1:${port}` };
}

/**
 * `app` on an HTTP server, as @hono/node-server's `serve` would start it, except
 * for the request body a route left unread: see keepConnectionUsable (its own
 * clean-up, autoCleanupIncoming, is what broke the connections).
 */
export function listen(app: Hono, http: { port: number; host: string }): Promise<Server> {
  const handle = getRequestListener(app.fetch, { hostname: http.host, autoCleanupIncoming: false });
  const server = createServer((req, res) => {
    keepConnectionUsable(req, res);
    void handle(req, res);
  });
  // Node's default is 5 s: a proxy (60 s idle by default) or a client that reuses a
  // connection just as it times out here gets a reset. Idle connections are closed at stop.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return new Promise<Server>((resolve, reject) => {
    server.once("error", reject);
    server.listen(http.port, http.host, () => resolve(server));
  });
}
