import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import type { Generations } from "../../domain/generations/service";
import { type HintOutcome, takeWebhookHint } from "../../domain/generations/sync/webhook-hint";
import type { GenerationQueues } from "../../domain/generations/types";
import type { Logger } from "../../platform/lib/logger";
import { sameSecret } from "../../platform/lib/same-secret";
import type { MediaClient } from "../../platform/media-service/client";
import { parseWebhook } from "../../platform/media-service/webhook";
import type { Metrics } from "../../platform/metrics/metrics";
import { verifyGid } from "../../platform/storage/signed-tokens";

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
  /** asked whether a task a webhook names really exists and carries our gid */
  media: Pick<MediaClient, "getTask">;
  metrics?: Metrics;
  now(): number;
  /** webhooks about generations older than this (clock ms) are ignored; default 7 days */
  maxAgeMs?: number;
}

const maxWebhookBytes = 1024 * 1024;
const defaultMaxAgeMs = 7 * 24 * 60 * 60 * 1000;

/**
 * A task id as the service could have issued it: what we store, look up and
 * send back in a URL. Postgres text cannot hold NUL, and a long id would
 * overflow an index row.
 */
const taskIdSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^\p{Cc}\p{Cs}]+$/u, "control characters");

const gidSchema = z.uuid();

/**
 * `task.completed` arrives here. The body is only a hint: it tells which
 * generation to look at, and the sync worker fetches the task from the API.
 * Duplicate, late, out-of-order, forged and malformed deliveries change
 * nothing and never get a 5xx: a 4xx for what cannot be a webhook of ours,
 * an ignored 200 for what names nothing we hold.
 */
/** How each outcome is counted, and what the 200 says was ignored. */
const answerOf: Record<HintOutcome, { metric: string; ignored?: string }> = {
  "sync-enqueued": { metric: "accepted" },
  "unknown-task": { metric: "unknown", ignored: "unknown task" },
  "too-old": { metric: "unknown", ignored: "too old" },
  "known-task": { metric: "orphan", ignored: "known task" },
  "orphan-recorded": { metric: "orphan", ignored: "orphan" },
  "orphan-not-confirmed": { metric: "orphan", ignored: "not confirmed" },
};

export function mediaWebhookRoutes(deps: MediaWebhookDeps): Hono {
  const maxAgeMs = deps.maxAgeMs ?? defaultMaxAgeMs;
  const app = new Hono();
  // real time, as Prometheus compares it: "no webhook for N minutes" counts from this start at the latest
  deps.metrics?.webhookLastAccepted.setToCurrentTime();
  const refuse = (reason: string, result: "refused" | "forged" = "refused") => {
    deps.logger.warn({ reason }, "media webhook refused");
    deps.metrics?.webhooks.inc({ result });
  };

  app.post(
    "/webhooks/media/:secret",
    async (c, next) => {
      if (!sameSecret(c.req.param("secret"), deps.pathSecret)) return c.json({ error: "not_found" }, 404);
      await next();
    },
    bodyLimit({
      maxSize: maxWebhookBytes,
      onError: (c) => {
        refuse("body too large");
        return c.json({ error: "too_large" }, 413);
      },
    }),
    async (c) => {
      const raw = await c.req.text();
      const headers: Record<string, string> = {};
      c.req.raw.headers.forEach((v, k) => {
        headers[k] = v;
      });
      const parsed = parseWebhook(raw, headers, { signingSecret: deps.providerSigningSecret, now: deps.now });
      if (!parsed.ok) {
        refuse(parsed.reason);
        return c.json({ error: "invalid", reason: parsed.reason }, 400);
      }
      if (parsed.taskId !== undefined && !taskIdSchema.safeParse(parsed.taskId).success) {
        refuse("task id");
        return c.json({ error: "invalid", reason: "task id" }, 400);
      }
      const taskId = parsed.taskId;
      const gid = typeof parsed.metadata?.gid === "string" ? parsed.metadata.gid : undefined;
      if (
        gid !== undefined &&
        !(verifyGid(deps.signingSecret, gid, parsed.metadata?.sig) && gidSchema.safeParse(gid).success)
      ) {
        refuse("forged gid", "forged");
        return c.json({ error: "forbidden" }, 403);
      }
      const outcome = await takeWebhookHint({ gid, taskId }, { ...deps, maxAgeMs });
      const { metric, ignored } = answerOf[outcome];
      deps.metrics?.webhooks.inc({ result: metric });
      if (metric === "accepted") deps.metrics?.webhookLastAccepted.setToCurrentTime();
      return c.json(ignored ? { ok: true, ignored } : { ok: true });
    },
  );
  return app;
}
