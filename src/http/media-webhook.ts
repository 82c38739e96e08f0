import { timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { GenerationQueues, Generations } from "../generations/service";
import type { Logger } from "../lib/logger";
import { parseWebhook } from "../media/webhook";
import { verifyGid } from "../storage/signed-tokens";
import type { Metrics } from "./metrics";

export interface MediaWebhookDeps {
  generations: Generations;
  queues: GenerationQueues;
  logger: Logger;
  /** the unguessable path segment */
  pathSecret: string;
  /** HMAC key of the gid signature we put in metadata */
  signingSecret: string;
  /** the provider's own signature, checked too where configured */
  providerSigningSecret?: string | undefined;
  metrics?: Metrics;
  now(): number;
}

const maxBody = 1024 * 1024;

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * `task.completed` arrives here. The body is only a hint: it tells which
 * generation to look at, and the sync worker fetches the task from the API.
 * Duplicate, late, out-of-order and forged deliveries change nothing.
 */
export function mediaWebhookRoutes(deps: MediaWebhookDeps): Hono {
  const app = new Hono();
  app.post("/webhooks/media/:secret", async (c) => {
    if (!sameSecret(c.req.param("secret"), deps.pathSecret)) return c.json({ error: "not_found" }, 404);
    const raw = await c.req.text();
    if (raw.length > maxBody) return c.json({ error: "too_large" }, 413);
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((v, k) => {
      headers[k] = v;
    });
    const parsed = parseWebhook(raw, headers, { signingSecret: deps.providerSigningSecret, now: deps.now });
    if (!parsed.ok) {
      deps.logger.warn({ reason: parsed.reason }, "media webhook refused");
      deps.metrics?.webhooks.inc({ result: "refused" });
      return c.json({ error: "invalid", reason: parsed.reason }, 400);
    }
    const gid = typeof parsed.metadata?.gid === "string" ? parsed.metadata.gid : undefined;
    if (gid !== undefined && !verifyGid(deps.signingSecret, gid, parsed.metadata?.sig)) {
      deps.logger.warn({ gid, taskId: parsed.taskId }, "media webhook with a forged gid");
      deps.metrics?.webhooks.inc({ result: "forged" });
      return c.json({ error: "forbidden" }, 403);
    }
    const byGid = gid ? await deps.generations.get(gid).catch(() => null) : null;
    const byTask = !byGid && parsed.taskId ? await deps.generations.byTaskId(parsed.taskId) : null;
    const g = byGid ?? byTask;
    if (!g) {
      deps.metrics?.webhooks.inc({ result: "unknown" });
      return c.json({ ok: true, ignored: "unknown task" });
    }
    if (parsed.taskId && g.taskId && g.taskId !== parsed.taskId) {
      // our gid, but not the task we hold: a duplicate the service ran anyway
      const other = await deps.generations.byTaskId(parsed.taskId);
      if (!other)
        await deps.generations.recordOrphan(
          parsed.taskId,
          g.id,
          null,
          "webhook for a second task of one gid",
        );
      deps.metrics?.webhooks.inc({ result: "orphan" });
      return c.json({ ok: true, ignored: "orphan" });
    }
    const adopt = !g.taskId && parsed.taskId ? parsed.taskId : undefined;
    await deps.queues.sync(g.id, { now: true, ...(adopt ? { adopt } : {}) });
    deps.metrics?.webhooks.inc({ result: "accepted" });
    return c.json({ ok: true });
  });
  return app;
}
