import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { sameSecret } from "../../src/platform/lib/same-secret";
import type { Operation } from "../../src/platform/media-service/catalog";
import {
  describeIssues,
  dubbingRequest,
  imageEditRequest,
  imageGenerationRequest,
  videoGenerationRequest,
} from "../../src/platform/media-service/schemas";
import type { Engine, PublicTask, Registration } from "./engine";
import type { FaultState } from "./faults";
import type { FileStore } from "./files";

/** The five endpoints of the document, plus the output files and a health check. */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface AppDeps {
  apiKey: string;
  engine: Engine;
  faults: FaultState;
  files: FileStore;
  requests: RecordedRequest[];
  /** oldest recorded requests are dropped beyond this */
  maxRecordedRequests: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

const maxIdempotencyKeys = 10_000;

type Answer = { status: ContentfulStatusCode; body: unknown; headers?: Record<string, string> };

/** The error body of this simulator; the real one is not documented (see ASSUMPTIONS.md). */
const errorAnswer = (
  status: ContentfulStatusCode,
  code: string,
  message: string,
  extra: { details?: unknown; headers?: Record<string, string> } = {},
): Answer => ({
  status,
  body: { error: { code, message, ...(extra.details !== undefined && { details: extra.details }) } },
  ...(extra.headers && { headers: extra.headers }),
});

const send = (c: Context, a: Answer) => c.json(a.body as object, a.status, a.headers);

const defaultCodes: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  402: "insufficient_credits",
  403: "forbidden",
  429: "rate_limited",
  500: "internal_error",
  502: "bad_gateway",
  503: "service_unavailable",
};

function keyMatches(header: string | undefined, apiKey: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!m) return false;
  return sameSecret(m[1]!.trim(), apiKey);
}

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  const idempotent = new Map<string, { fingerprint: string; answer: Promise<Answer> }>();

  app.use("*", async (c, next) => {
    const body = c.req.method === "GET" || c.req.method === "HEAD" ? "" : await c.req.text();
    deps.requests.push({
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      headers: Object.fromEntries(c.req.raw.headers),
      body,
      at: deps.now(),
    });
    if (deps.requests.length > deps.maxRecordedRequests) {
      deps.requests.splice(0, deps.requests.length - deps.maxRecordedRequests);
    }
    await next();
  });

  app.get("/healthz", (c) => c.json({ ok: true }));

  app.get("/files/:name", (c) => {
    const file = deps.files.get(c.req.param("name"));
    if (!file) return c.json({ error: { code: "not_found", message: "no such file" } }, 404);
    if ("bytes" in file) {
      return c.body(new Uint8Array(file.bytes), 200, {
        "content-type": file.contentType,
        "content-length": String(file.bytes.length),
      });
    }
    const headers = { "content-type": file.contentType, "content-length": String(file.size) };
    // a HEAD opens nothing: an unread stream would hold its descriptor
    if (c.req.method === "HEAD") return c.body(null, 200, headers);
    return c.body(Readable.toWeb(createReadStream(file.path)) as unknown as ReadableStream, 200, headers);
  });

  app.use("/api/*", async (c, next) => {
    if (!keyMatches(c.req.header("authorization"), deps.apiKey)) {
      return send(
        c,
        errorAnswer(401, "unauthorized", "missing or invalid API key (Authorization: Bearer <key>)"),
      );
    }
    await next();
  });

  function faultAnswer(f: { status: number; code?: string; retryAfterSeconds?: number }): Answer {
    const status = f.status as ContentfulStatusCode;
    const headers =
      f.retryAfterSeconds !== undefined ? { "retry-after": String(f.retryAfterSeconds) } : undefined;
    return errorAnswer(
      status,
      f.code ?? defaultCodes[f.status] ?? "error",
      `injected fault: HTTP ${f.status}`,
      {
        ...(headers && { headers }),
      },
    );
  }

  function createRoute<S extends z.ZodType>(
    path: string,
    operation: Operation,
    schema: S,
    register: (input: z.output<S>) => Registration | Promise<Registration>,
    shape: (r: Extract<Registration, { ok: true }>, input: z.output<S>) => unknown,
  ): void {
    app.post(path, async (c) => {
      const before = deps.faults.takeCreateFault(operation, "before");
      if (before?.delayMs) await deps.sleep(before.delayMs);
      if (before?.status !== undefined) return send(c, faultAnswer({ ...before, status: before.status }));

      const raw = await c.req.text();
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return send(c, errorAnswer(400, "invalid_request", "the body must be JSON"));
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const details = describeIssues(parsed.error);
        return send(c, errorAnswer(400, "invalid_request", details.join("; "), { details }));
      }
      const input: z.output<S> = parsed.data;

      const key = c.req.header("idempotency-key");
      const fingerprint = `${path}\n${JSON.stringify(json)}`;
      const seen = key && !deps.faults.amnesia ? idempotent.get(key) : undefined;
      if (key && seen) {
        if (seen.fingerprint !== fingerprint) {
          return send(
            c,
            errorAnswer(
              409,
              "idempotency_key_reused",
              "this Idempotency-Key was used with a different request",
            ),
          );
        }
        const replay = await seen.answer;
        return send(c, { ...replay, headers: { ...replay.headers, "idempotent-replayed": "true" } });
      }

      const answer = (async (): Promise<Answer> => {
        const r = await register(input);
        if (!r.ok) return errorAnswer(r.status as ContentfulStatusCode, r.code, r.message);
        return { status: 200, body: shape(r, input) };
      })();
      if (key) {
        idempotent.set(key, { fingerprint, answer });
        // keys are kept for the most recent creates only, so a long sandbox session stays small
        if (idempotent.size > maxIdempotencyKeys) idempotent.delete(idempotent.keys().next().value!);
      }
      const result = await answer;
      // errors are not remembered: the same request may be tried again
      if (key && result.status !== 200) idempotent.delete(key);

      const after = result.status === 200 ? deps.faults.takeCreateFault(operation, "after") : undefined;
      if (after?.delayMs) await deps.sleep(after.delayMs);
      if (after?.status !== undefined) return send(c, faultAnswer({ ...after, status: after.status }));
      return send(c, result);
    });
  }

  const shortForm = (t: PublicTask) => ({
    id: t.id,
    status: t.status,
    model: t.model,
    credits_reserved: t.credits_reserved,
    created_at: t.created_at,
  });

  createRoute(
    "/api/v1/images/generations",
    "image",
    imageGenerationRequest,
    (input) => deps.engine.registerImage(input, "image"),
    // documented with id, status and credits_reserved only
    ({ task }) => ({ id: task.id, status: task.status, credits_reserved: task.credits_reserved }),
  );
  createRoute(
    "/api/v1/images/edits",
    "edit",
    imageEditRequest,
    (input) => deps.engine.registerImage(input, "edit"),
    ({ task }) => shortForm(task),
  );
  createRoute(
    "/api/v1/videos/generations",
    "video",
    videoGenerationRequest,
    (input) => deps.engine.registerVideo(input),
    ({ task }) => shortForm(task),
  );
  createRoute(
    "/api/v1/audio/dubbing",
    "dub",
    dubbingRequest,
    (input) => deps.engine.registerDubbing(input),
    ({ task, extra }, input) => ({
      id: task.id,
      status: task.status,
      type: task.type,
      model: task.model,
      target_language: input.target_language,
      source_language: extra?.sourceLanguage ?? "auto",
      duration_seconds: extra?.durationSeconds ?? 0,
      credits_reserved: task.credits_reserved,
      metadata: input.metadata ?? {},
      created_at: task.created_at,
    }),
  );

  app.get("/api/v1/tasks/:id", (c) => {
    const injected = deps.faults.takeLookupFault();
    if (injected !== undefined) return send(c, faultAnswer({ status: injected }));
    const task = deps.engine.get(c.req.param("id"));
    if (!task) return send(c, errorAnswer(404, "not_found", "no task with this id"));
    return c.json(task);
  });

  app.notFound((c) => send(c, errorAnswer(404, "not_found", `no route ${c.req.method} ${c.req.path}`)));
  app.onError((err, c) => send(c, errorAnswer(500, "internal_error", err.message)));
  return app;
}
