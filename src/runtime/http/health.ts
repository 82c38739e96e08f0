import type { Queue } from "bullmq";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import type { Redis } from "ioredis";
import type { Database } from "../../platform/db/client";
import type { Metrics } from "../../platform/metrics/metrics";

export interface HealthDeps {
  db: Database;
  redis: Redis;
  queues: Queue[];
  metrics: Metrics;
  /** readiness fails when more jobs than this wait in one queue */
  maxQueueLag?: number;
  /** what else must run for this process to be ready (Telegram intake, workers) */
  parts?: () => Array<{ name: string; ok: boolean; detail: string }>;
}

/** What /readyz answers: Postgres and Redis answer, no queue is far behind, and this role's own parts run. */
async function readinessOf(deps: HealthDeps): Promise<{ ready: boolean; checks: Record<string, string> }> {
  const checks: Record<string, string> = {};
  let ready = true;
  try {
    await deps.db.execute(sql`select 1`);
    checks.postgres = "ok";
  } catch (err) {
    ready = false;
    checks.postgres = (err as Error).message;
  }
  try {
    await deps.redis.ping();
    checks.redis = "ok";
    for (const q of deps.queues) {
      const waiting = await q.getWaitingCount();
      checks[`queue_${q.name}`] = String(waiting);
      if (waiting > (deps.maxQueueLag ?? 1000)) ready = false;
    }
  } catch (err) {
    ready = false;
    checks.redis = (err as Error).message;
  }
  for (const part of deps.parts?.() ?? []) {
    checks[part.name] = part.ok ? "ok" : part.detail;
    if (!part.ok) ready = false;
  }
  return { ready, checks };
}

/**
 * `/healthz`: the process lives. `/readyz`: ready or not, with each check (`msb_ready`
 * says the same at each scrape). `/metrics`: Prometheus, this process's registry.
 */
export function healthRoutes(deps: HealthDeps): Hono {
  const app = new Hono();
  deps.metrics.watchReadiness(async () => (await readinessOf(deps)).ready);
  app.get("/healthz", (c) => c.json({ ok: true }));
  app.get("/readyz", async (c) => {
    const { ready, checks } = await readinessOf(deps);
    return c.json({ ready, checks }, ready ? 200 : 503);
  });
  app.get("/metrics", async (c) => {
    const body = await deps.metrics.registry.metrics();
    return c.body(body, 200, { "content-type": deps.metrics.registry.contentType });
  });
  return app;
}
