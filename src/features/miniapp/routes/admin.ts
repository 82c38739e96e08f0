import { Hono } from "hono";
import { userLabel } from "../../../domain/users/user-label";
import type { Database } from "../../../platform/db/client";
import type { createBroadcastStore } from "../../broadcasts";
import { type ReportStore, reportedPrompt } from "../../moderation";
import { statsByDay } from "../admin-stats";
import { answer, fail, invalid } from "../answers";
import * as contract from "../contract";
import type { AppEnv } from "../guard";

export interface AdminRoutesDeps {
  db: Database;
  adminIds: readonly number[];
  broadcasts: Pick<ReturnType<typeof createBroadcastStore>, "latest" | "counts">;
  reports: Pick<ReportStore, "open">;
}

const latestBroadcasts = 20;

/** The admins' part: the stats by day, the latest broadcasts and the open reports. */
export function adminRoutes(deps: AdminRoutesDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  // answers others as if it did not exist
  app.use("/admin/*", async (c, next) =>
    deps.adminIds.includes(c.get("caller").id) ? next() : fail(c, { error: "not_found" }),
  );

  app.get("/admin/stats", async (c) => {
    const query = contract.statsQuery.safeParse(c.req.query());
    if (!query.success) return invalid(c, query.error);
    return answer(c, contract.statsResponse, await statsByDay(deps.db, query.data.days));
  });

  app.get("/admin/broadcasts", async (c) => {
    const latest = await deps.broadcasts.latest(latestBroadcasts);
    const items = await Promise.all(
      latest.map(async (b) => ({
        id: b.id,
        createdAt: b.createdAt.toISOString(),
        state: b.state,
        text: b.text,
        counts: await deps.broadcasts.counts(b.id),
      })),
    );
    return answer(c, contract.broadcastsResponse, { items });
  });

  app.get("/admin/reports", async (c) => {
    const open = await deps.reports.open();
    const reports = open.map((r) => ({
      generationId: r.generationId,
      createdAt: r.createdAt.toISOString(),
      group: r.group ?? "—",
      maker: userLabel({ id: r.makerId, username: r.makerUsername, firstName: r.makerFirstName }),
      operation: r.operation ?? "—",
      prompt: r.params ? reportedPrompt({ params: r.params }) : "—",
      reporters: r.reporterIds.length,
    }));
    return answer(c, contract.reportsResponse, { reports });
  });

  return app;
}
