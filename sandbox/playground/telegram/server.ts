import { createReadStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Readable } from "node:stream";
import { type HttpBindings, serve } from "@hono/node-server";
import { Hono } from "hono";
import { ApiError, type Envelope } from "./errors";
import { botMethods } from "./methods/bot";
import { mediaMethods } from "./methods/media";
import { messageMethods } from "./methods/messages";
import { paymentMethods } from "./methods/payments";
import { queryMethods } from "./methods/queries";
import { boundaryOf, parseMultipart, spoolMultipart } from "./multipart";
import { Params, summarizeParams } from "./params";
import type { CallRecord, MethodHandler, World } from "./world";

const handlers = new Map<string, { name: string; handler: MethodHandler }>();
for (const group of [botMethods, messageMethods, mediaMethods, queryMethods, paymentMethods]) {
  for (const [name, handler] of Object.entries(group)) handlers.set(name.toLowerCase(), { name, handler });
}

/** Bot API method names the stand-in speaks. */

const notFound = new ApiError(404, "Not Found");
const unauthorized = new ApiError(401, "Unauthorized");
const badGateway = new ApiError(502, "Bad Gateway");

async function readParams(world: World, request: Request): Promise<Params> {
  const raw: Record<string, unknown> = Object.fromEntries(new URL(request.url).searchParams);
  if (request.method !== "POST") return new Params(raw);
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("multipart/form-data")) {
    const boundary = boundaryOf(type);
    if (!boundary) throw new ApiError(400, "Bad Request: invalid multipart boundary");
    const { localDir } = world.files;
    // a local server takes uploads of up to 2000 MB: they go to disk as they arrive
    const body = localDir
      ? await spoolMultipart(request.body, boundary, join(localDir, "uploads"), world.rules.maxUploadBytes)
      : parseMultipart(Buffer.from(await request.arrayBuffer()), boundary);
    return new Params({ ...raw, ...body.fields }, body.files);
  }
  const text = await request.text();
  if (text === "") return new Params(raw);
  if (type.includes("application/x-www-form-urlencoded")) {
    return new Params({ ...raw, ...Object.fromEntries(new URLSearchParams(text)) });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(400, "Bad Request: can't parse JSON object");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ApiError(400, "Bad Request: JSON object expected");
  }
  return new Params({ ...raw, ...(parsed as Record<string, unknown>) });
}

/** Runs one Bot API call and records it, as Telegram would answer it. */
export async function callMethod(
  world: World,
  methodName: string,
  params: Params,
  signal?: AbortSignal,
): Promise<{ status: number; envelope: Envelope; body: unknown; record: CallRecord }> {
  const entry = handlers.get(methodName.toLowerCase());
  const at = world.clock.now();
  let envelope: Envelope;
  let status = 200;
  let body: unknown;
  try {
    if (!entry) throw notFound;
    const fault = world.faults.find((f) => f.method === entry.name.toLowerCase() || f.method === "*");
    if (fault) {
      fault.times -= 1;
      if (fault.times <= 0) world.faults.splice(world.faults.indexOf(fault), 1);
      if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (fault.gate) {
        fault.gate.waiting += 1;
        await fault.gate.opened;
        fault.gate.waiting -= 1;
      }
      if (fault.raw) {
        status = fault.raw.status;
        body = fault.raw.body;
        throw new ApiError(fault.raw.status, `(answered ${JSON.stringify(fault.raw.body)})`);
      }
      if (fault.error) throw fault.error;
    }
    const result = await entry.handler(world, params, signal ? { signal } : {});
    envelope = { ok: true, result: JSON.parse(JSON.stringify(result ?? true)) };
  } catch (err) {
    const error =
      err instanceof ApiError
        ? err
        : new ApiError(
            500,
            `Internal Server Error: stand-in failed: ${err instanceof Error ? err.stack : String(err)}`,
          );
    status = error.code;
    envelope = error.toEnvelope();
    logRejection(world, entry?.name ?? methodName, params, error);
  }
  const record: CallRecord = {
    method: entry?.name ?? methodName,
    params: summarizeParams(params),
    at,
    response: envelope,
  };
  world.calls.push(record);
  return { status, envelope, body: body ?? envelope, record };
}

function logRejection(world: World, method: string, params: Params, error: ApiError): void {
  let chatId: number | string | undefined;
  try {
    chatId = params.chatId();
  } catch {
    return;
  }
  const chat = typeof chatId === "number" ? world.chats.get(chatId) : undefined;
  if (chat) world.chats.log(chat, `bot ${method} ✗ ${error.code} ${error.description}`);
}

async function fileResponse(world: World, path: string): Promise<Response> {
  const file = world.files.atPath(path);
  const missing = () => Response.json(notFound.toEnvelope(), { status: 404 });
  if (!file || file.size > world.rules.maxDownloadBytes) return missing();
  const type = file.mime ?? "application/octet-stream";
  const { content } = file;
  if (content.diskPath !== undefined) {
    // a test's own file it sent from a path may be gone by now
    const size = await stat(content.diskPath).then(
      (s) => s.size,
      () => undefined,
    );
    if (size === undefined) return missing();
    const body = Readable.toWeb(createReadStream(content.diskPath)) as ReadableStream<Uint8Array>;
    return new Response(body, { headers: { "content-type": type, "content-length": String(size) } });
  }
  // a test may declare a size without allocating it; the download then has that size
  const bytes =
    content.bytes.length >= file.size
      ? content.bytes
      : Buffer.concat([content.bytes, Buffer.alloc(file.size - content.bytes.length)]);
  return new Response(new Uint8Array(bytes), {
    headers: { "content-type": type, "content-length": String(bytes.length) },
  });
}

export function createApp(world: World): Hono {
  const app = new Hono();
  app.all("*", async (c) => {
    const path = decodeURIComponent(new URL(c.req.url).pathname);
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(path);
    if (file) {
      if (file[1] !== world.token) return c.json(unauthorized.toEnvelope(), 401);
      // as telegram-bot-api --local: no files over HTTP; the bot reads getFile's path from the shared disk
      if (world.files.localDir) return c.json(notFound.toEnvelope(), 404);
      return fileResponse(world, file[2]!);
    }
    const call = /^\/bot([^/]+)\/([^/]*)$/.exec(path);
    if (!call) return c.json(notFound.toEnvelope(), 404);
    if (call[1] !== world.token) return c.json(unauthorized.toEnvelope(), 401);
    let params: Params;
    try {
      params = await readParams(world, c.req.raw);
    } catch (err) {
      const error = err instanceof ApiError ? err : new ApiError(400, "Bad Request: can't parse request");
      return c.json(error.toEnvelope(), error.code as 400);
    }
    const cut = () => {
      (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket.destroy();
      return new Response(null, { status: 500 });
    };
    const outage = world.outage;
    if (outage && (outage.started || outage.from === undefined || outage.from === call[2]!.toLowerCase())) {
      outage.started = true;
      outage.refused += 1;
      return outage.kind === "refused" ? cut() : c.json(badGateway.toEnvelope(), 502);
    }
    const fault = world.randomFaults?.draw() ?? "none";
    if (fault === "drop-before") return cut();
    if (fault === "bad-gateway") return c.json(badGateway.toEnvelope(), 502);
    const { status, body, record } = await callMethod(world, call[2]!, params, c.req.raw.signal).finally(() =>
      // spooled uploads: what the call kept is linked into the bot's folder by now
      Promise.all([...params.files.values()].map((f) => f.diskPath && rm(f.diskPath, { force: true }))),
    );
    if (fault === "drop-after") {
      record.unconfirmed = true;
      return cut();
    }
    return new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json" },
    });
  });
  return app;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export function listen(app: Hono, port: number): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ("closeAllConnections" in server) server.closeAllConnections();
          }),
      });
    });
    server.once("error", reject);
    // as Telegram's servers, idle connections are kept well past a client's reuse of them: Node's
    // 5 s default races the client's own 4 s on a loaded machine and resets a request in flight
    if ("keepAliveTimeout" in server) server.keepAliveTimeout = 65_000;
  });
}
