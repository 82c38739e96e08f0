import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { isAbsolute } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Api } from "grammy";
import { type Context, Hono } from "hono";
import type { Logger } from "../../platform/lib/logger";
import { releasingChunks } from "../../platform/lib/release-chunks";
import { verifyFileToken } from "../../platform/storage/signed-tokens";
import { insideStore, type MediaStore, type StoredFile } from "../../platform/storage/stored-file";

export interface FileProxyDeps {
  signingSecret: string;
  now(): number;
  store: MediaStore;
  /** null when this process has no bot (then Telegram files cannot be served) */
  telegram: { api: Api; token: string; apiRoot: string; localFiles?: boolean } | null;
  logger: Logger;
  fetch?: typeof fetch;
  /** real ms to wait for Telegram's file server to answer before a 502 */
  upstreamTimeoutMs?: number;
}

// @hono/node-server answers a Response of its own (which it makes the global one when a
// server starts) from a cache that ignores "already sent" and writes a second head: the
// marker made after a server started (the sandbox's simulator starts one before the web
// role is loaded) is such a Response. Reading its body trades the cache for a plain one.
void RESPONSE_ALREADY_SENT.body;

/** how long a redirect to a bucket's presigned link holds: a download starts at once */
const storeLinkSeconds = 3600;

/** Telegram's file server did not answer in time. */
class UpstreamTimeout extends Error {
  override name = "TimeoutError";
}

/**
 * `GET` (or `HEAD`) on `url` with node's own client: resolves with the answer's
 * head once it came, within `timeoutMs`; the body is then the caller's to read
 * (or to destroy). An error never quotes the URL (it holds the bot token).
 */
function requestUpstream(url: string, method: "GET" | "HEAD", timeoutMs: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(target, { method });
    const timer = setTimeout(() => req.destroy(new UpstreamTimeout("no answer in time")), timeoutMs);
    req.once("response", (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    // `on`, not `once`: a later error (the connection reset mid-body) reaches the body's reader
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end();
  });
}

/**
 * Writes `headers` and `body` straight to node's response (the headers Hono
 * already prepared, e.g. X-Request-Id, too): chunks go from socket to socket,
 * not through web streams whose buffers are freed only at GC. A client gone
 * mid-way destroys `body` (and with it the upstream connection).
 */
async function relay(
  c: Context,
  outgoing: ServerResponse,
  headers: Record<string, string>,
  body: NodeJS.ReadableStream & { destroy(): void },
  logger: Logger,
): Promise<Response> {
  c.res.headers.forEach((value, key) => {
    outgoing.setHeader(key, value);
  });
  outgoing.writeHead(200, headers);
  try {
    await pipeline(body, releasingChunks(), outgoing);
  } catch (err) {
    // the client went away, or the upstream broke off: nothing left to answer
    logger.info(
      { error: err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.name) : "unknown" },
      "file proxy: relay cut short",
    );
  }
  return RESPONSE_ALREADY_SENT;
}

/** node's response when served by @hono/node-server; none under `app.request()` */
const nodeResponse = (c: Context): ServerResponse | undefined =>
  (c.env as Partial<HttpBindings> | undefined)?.outgoing;

/**
 * `GET /files/<token>`: the service downloads our users' uploads here, and users
 * download outputs too large for Telegram. Telegram files are streamed through;
 * the Telegram file URL (which contains the bot token) never leaves this process.
 */
export function fileProxyRoutes(deps: FileProxyDeps): Hono {
  const app = new Hono();
  const doFetch = deps.fetch ?? fetch;
  app.get("/files/:token", async (c) => {
    const v = verifyFileToken(deps.signingSecret, c.req.param("token"), deps.now());
    if (!v.ok) return c.json({ error: v.reason }, v.reason === "expired" ? 410 : 403);
    const p = v.payload;
    const serve = async (file: StoredFile) => {
      const headers = {
        "content-type": file.mimeType,
        "content-length": String(file.size),
        "content-disposition": `attachment; filename="${file.fileName}"`,
      };
      // a HEAD (download managers send one first) opens nothing: an unread stream would keep its
      // descriptor, and a link signed for GET answers no HEAD
      if (c.req.method === "HEAD") return new Response(null, { headers });
      // a bucket serves its own files: the phone or the service is sent there, no byte passes here
      const direct = await deps.store.link(file.path, storeLinkSeconds, file.fileName);
      if (direct) return c.redirect(direct, 302);
      const body = await deps.store.open(file.path);
      const outgoing = nodeResponse(c);
      if (outgoing) return relay(c, outgoing, headers, body, deps.logger);
      return new Response(Readable.toWeb(body) as unknown as ReadableStream, { headers });
    };
    if (p.k === "out") {
      if (!insideStore(p.p)) return c.json({ error: "not_found" }, 404);
      const file = await deps.store.existing(p.p);
      // a signed path inside the store names a file we made: it is gone past its retention
      if (!file) return c.json({ error: "gone" }, 410);
      return serve(file);
    }
    if (p.k === "in") {
      // signed only once the copy was complete: missing, it is past its retention
      const file = await deps.store.findInput(p.g);
      return file ? serve(file) : c.json({ error: "gone" }, 410);
    }
    if (!deps.telegram) return c.json({ error: "unavailable" }, 503);
    const { api, token, apiRoot } = deps.telegram;
    let filePath: string | undefined;
    try {
      filePath = (await api.getFile(p.f)).file_path;
    } catch (err) {
      deps.logger.warn({ err: (err as Error).message }, "file proxy: getFile failed");
      return c.json({ error: "not_found" }, 404);
    }
    if (!filePath) return c.json({ error: "not_found" }, 404);
    // a local Bot API server names the file on the disk it shares with us
    if (deps.telegram.localFiles && isAbsolute(filePath)) {
      const size = await stat(filePath)
        .then((s) => s.size)
        .catch(() => undefined);
      if (size === undefined) return c.json({ error: "not_found" }, 404);
      const headers = { "content-type": "application/octet-stream", "content-length": String(size) };
      if (c.req.method === "HEAD") return new Response(null, { headers });
      const outgoing = nodeResponse(c);
      if (outgoing) return relay(c, outgoing, headers, createReadStream(filePath), deps.logger);
      return new Response(Readable.toWeb(createReadStream(filePath)) as unknown as ReadableStream, {
        headers,
      });
    }
    const method = c.req.method === "HEAD" ? "HEAD" : "GET";
    const timeoutMs = deps.upstreamTimeoutMs ?? 30_000;
    const url = `${apiRoot}/file/bot${token}/${filePath}`;
    const unreachable = (err: unknown) => {
      // never the error itself: its message may quote the URL, which holds the bot token
      deps.logger.warn(
        { error: err instanceof Error ? err.name : "unknown" },
        "file proxy: Telegram file unreachable",
      );
      return c.json({ error: "upstream" }, 502);
    };
    const outgoing = nodeResponse(c);
    if (outgoing && !deps.fetch) {
      let incoming: IncomingMessage;
      try {
        incoming = await requestUpstream(url, method, timeoutMs);
      } catch (err) {
        return unreachable(err);
      }
      const status = incoming.statusCode ?? 0;
      if (status < 200 || status > 299) {
        incoming.destroy();
        return c.json({ error: "upstream" }, 502);
      }
      const headers: Record<string, string> = {};
      for (const h of ["content-type", "content-length"]) {
        const value = incoming.headers[h];
        if (typeof value === "string") headers[h] = value;
      }
      if (method === "HEAD") {
        incoming.resume();
        return new Response(null, { headers });
      }
      return relay(c, outgoing, headers, incoming, deps.logger);
    }
    let upstream: Response;
    // bounds the wait for Telegram's answer, not the (possibly long) download after it
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      upstream = await doFetch(url, { method, signal: abort.signal });
    } catch (err) {
      return unreachable(err);
    } finally {
      clearTimeout(timer);
    }
    if (!upstream.ok || (c.req.method !== "HEAD" && !upstream.body))
      return c.json({ error: "upstream" }, 502);
    const headers = new Headers();
    for (const h of ["content-type", "content-length"]) {
      const value = upstream.headers.get(h);
      if (value) headers.set(h, value);
    }
    return new Response(upstream.body, { headers });
  });
  return app;
}
