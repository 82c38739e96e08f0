import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createMediaClient, MediaServiceError } from "../../../src/platform/media-service/client";
import { classifyTask } from "../../../src/platform/media-service/task-status";

/**
 * The client against /work/shared/reference/media-service-api.md, not against
 * the simulator: a bare HTTP server answers bodies written by hand from the
 * document (and, where the document says "not shown", the plausible variants).
 * Nothing here uses the simulator or the schemas it shares with the client.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe("the media client against the document", () => {
  let server: Server;
  let base: string;
  let answers: Array<{ status: number; body: string; type?: string }>;
  let seen: Seen[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString();
      });
      req.on("end", () => {
        seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
        const a = answers.shift() ?? { status: 500, body: "no answer queued" };
        res.writeHead(a.status, { "content-type": a.type ?? "application/json" }).end(a.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    answers = [];
    seen = [];
  });

  const client = () => createMediaClient({ baseUrl: base, apiKey: "doc-key", maxRetries: 0, retryBaseMs: 1 });
  const answer = (status: number, body: unknown, type?: string) =>
    answers.push({
      status,
      body: typeof body === "string" ? body : JSON.stringify(body),
      ...(type ? { type } : {}),
    });

  test("4.3 + 5: image generation posts snake_case JSON with the bearer key; the short registration (id, status, credits_reserved) is enough", async () => {
    answer(200, { id: "task-123", status: "pending", credits_reserved: 8 });
    const r = await client().createImage(
      {
        prompt: "یک فانوس دریایی",
        model: "nano-pro",
        image_size: "16:9",
        num_images: 2,
        metadata: { gid: "g" },
      },
      { idempotencyKey: "key-1" },
    );
    expect(r).toMatchObject({ id: "task-123", credits_reserved: 8 });
    const req = seen[0]!;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/api/v1/images/generations");
    expect(req.headers.authorization).toBe("Bearer doc-key");
    expect(req.headers["idempotency-key"]).toBe("key-1");
    expect(req.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(req.body)).toMatchObject({
      prompt: "یک فانوس دریایی",
      image_size: "16:9",
      num_images: 2,
    });
  });

  test("2.1: a registration with every documented field and fields the document does not list is accepted", async () => {
    answer(200, {
      id: "task-9",
      status: "pending",
      model: "nano-core-2",
      credits_reserved: 4,
      created_at: "2026-01-02T03:04:05.678Z",
      region: "eu-1",
    });
    expect(await client().createImage({ prompt: "x" }, { idempotencyKey: "k" })).toMatchObject({
      id: "task-9",
    });
  });

  test("4.5: an id containing '::' is URL-component encoded in the lookup path", async () => {
    answer(200, {
      id: "dub::42",
      status: "pending",
      type: "video",
      model: "dubbing-provider:de",
      prompt: "Dubbing to German (de)",
      images: [],
      videos: [],
      audios: [],
      error: null,
      credits_reserved: 30,
      credits_deducted: false,
      metadata: { gid: "g" },
      created_at: "2026-01-02T03:04:05Z",
    });
    const t = await client().getTask("dub::42");
    expect(seen[0]!.url).toBe(`/api/v1/tasks/${encodeURIComponent("dub::42")}`);
    expect(t.id).toBe("dub::42");
    expect(classifyTask(t)).toMatchObject({ outcome: "running" });
  });

  test("2.1 + 3: the documented completed task gives its outputs; dubbing audio comes in audios", async () => {
    answer(200, {
      id: "t-done",
      status: "completed",
      type: "video",
      model: "dubbing-provider:fa",
      prompt: "Dubbing to Persian (fa)",
      images: [],
      videos: [],
      audios: ["https://cdn.example/a.mp3"],
      error: null,
      credits_reserved: 12,
      credits_deducted: true,
      created_at: "2026-01-02T03:04:05Z",
      completed_at: "2026-01-02T03:05:05Z",
    });
    expect(classifyTask(await client().getTask("t-done"))).toEqual({
      outcome: "succeeded",
      images: [],
      videos: [],
      audios: ["https://cdn.example/a.mp3"],
    });
  });

  // Not shown by the document: the failure state's name, the error's shape, intermediate states.
  test.each([
    ["failed", { code: "download_failed", message: "cannot fetch" }],
    ["error", null],
    ["FAILED", "timeout"],
    ["cancelled", null],
    ["pending", { message: "source URL could not be downloaded" }],
  ])(
    "a failed task in a form the document does not show (status %s, error %j) is failed",
    async (status, error) => {
      answer(200, { id: "t-f", status, images: [], videos: [], error, credits_reserved: 4 });
      expect(classifyTask(await client().getTask("t-f"))).toMatchObject({ outcome: "failed" });
    },
  );

  test.each(["processing", "queued", "running", "in_progress"])(
    "an intermediate status the document does not show (%s) is still running",
    async (status) => {
      answer(200, { id: "t-r", status, images: [], videos: [], error: null, credits_reserved: 4 });
      expect(classifyTask(await client().getTask("t-r"))).toMatchObject({ outcome: "running" });
    },
  );

  test("a completed task without outputs is not a success", async () => {
    answer(200, { id: "t-e", status: "completed", images: [], videos: [], error: null, credits_reserved: 4 });
    expect(classifyTask(await client().getTask("t-e"))).toMatchObject({ outcome: "failed" });
  });

  // 7: only `400 invalid_request` is shown; the body's shape is not.
  test.each([
    [{ error: { code: "invalid_request", message: "prompt too long" } }],
    [{ code: "invalid_request", message: "prompt too long" }],
    [{ error: "invalid_request" }],
    ["Bad Request"],
  ])("a 400 with the body %j is the request's fault, not retried", async (body) => {
    answer(400, body, typeof body === "string" ? "text/plain" : undefined);
    const err = await client()
      .createImage({ prompt: "x" }, { idempotencyKey: "v" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaServiceError);
    expect((err as MediaServiceError).kind).toBe("invalid_request");
    expect(seen).toHaveLength(1);
  });

  test.each([
    [401, "unauthorized"],
    [402, "payment_required"],
    [404, "not_found"],
    [500, "server"],
    [503, "server"],
  ])("a %i with an HTML body (no error shape shown) is a %s error", async (status, kind) => {
    answer(status, "<html><body>oops</body></html>", "text/html");
    const err = await client()
      .createImage({ prompt: "x" }, { idempotencyKey: "e" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaServiceError);
    expect((err as MediaServiceError).kind).toBe(kind);
  });

  test("a 200 whose body is not a registration (no id) is a bad response, not a task", async () => {
    answer(200, { taskId: "t-1", status: "pending" });
    const err = await client()
      .createImage({ prompt: "x" }, { idempotencyKey: "b" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaServiceError);
    expect((err as MediaServiceError).kind).toBe("bad_response");
  });
});
