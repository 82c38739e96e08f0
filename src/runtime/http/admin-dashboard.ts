import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { HonoAdapter } from "@bull-board/hono";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Queue } from "bullmq";
import { Hono } from "hono";
import { basicAuth } from "hono/basic-auth";
import type { GenerationReads } from "../../domain/generations/reads";
import { sameSecret } from "../../platform/lib/same-secret";

export interface AdminDashboardDeps {
  queues: Queue[];
  generations: Pick<GenerationReads, "stuck">;
  password: string;
  now(): number;
}

const dashboardPath = "/admin/queues";
/** a generation not at rest for longer than this is listed as stuck */
const stuckAfterMs = 30 * 60 * 1000;

/**
 * The operator's view, behind basic auth (user `admin`): bull-board over the
 * three queues, and `/admin/stuck`, the generations Postgres holds that have
 * not come to rest for half an hour, oldest first.
 */
export function adminDashboardRoutes(deps: AdminDashboardDeps): Hono {
  const app = new Hono();
  const guard = basicAuth({
    verifyUser: (user, password) => user === "admin" && sameSecret(password, deps.password),
  });
  app.use("/admin/*", guard);

  const board = new HonoAdapter(serveStatic).setBasePath(dashboardPath);
  createBullBoard({
    queues: deps.queues.map((q) => new BullMQAdapter(q, { readOnlyMode: false })),
    serverAdapter: board,
  });
  app.route(dashboardPath, board.registerPlugin());

  app.get("/admin/stuck", async (c) => {
    const rows = await deps.generations.stuck(new Date(deps.now() - stuckAfterMs), 200);
    return c.json({ stuckAfterMinutes: stuckAfterMs / 60_000, generations: rows });
  });
  return app;
}
