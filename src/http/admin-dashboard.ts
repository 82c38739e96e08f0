import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { HonoAdapter } from "@bull-board/hono";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Queue } from "bullmq";
import { and, asc, inArray, lt } from "drizzle-orm";
import { Hono } from "hono";
import { basicAuth } from "hono/basic-auth";
import type { Database } from "../db/client";
import { generations } from "../db/schema";
import { notAtRest } from "../generations/states";
import { sameSecret } from "../lib/same-secret";

export interface AdminDashboardDeps {
  queues: Queue[];
  db: Database;
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
    const rows = await deps.db
      .select({
        id: generations.id,
        userId: generations.userId,
        state: generations.state,
        operation: generations.operation,
        taskId: generations.taskId,
        attempts: generations.attempts,
        deliveryAttempts: generations.deliveryAttempts,
        updatedAt: generations.updatedAt,
      })
      .from(generations)
      .where(
        and(
          inArray(generations.state, notAtRest),
          lt(generations.updatedAt, new Date(deps.now() - stuckAfterMs)),
        ),
      )
      .orderBy(asc(generations.updatedAt))
      .limit(200);
    return c.json({ stuckAfterMinutes: stuckAfterMs / 60_000, generations: rows });
  });
  return app;
}
