import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import type { Hono } from "hono";
import { healthRoutes } from "../http/health";
import { rootApp } from "../http/root";
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

export function listen(app: Hono, http: { port: number; host: string }): Promise<ServerType> {
  return new Promise<ServerType>((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: http.port, hostname: http.host }, () => resolve(server));
    server.once("error", reject);
  });
}
