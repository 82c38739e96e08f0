import { Readable } from "node:stream";
import type { Api } from "grammy";
import { Hono } from "hono";
import type { Logger } from "../lib/logger";
import type { MediaStore, StoredFile } from "../storage/media-store";
import { verifyFileToken } from "../storage/signed-tokens";

export interface FileProxyDeps {
  signingSecret: string;
  now(): number;
  store: MediaStore;
  /** null when this process has no bot (then Telegram files cannot be served) */
  telegram: { api: Api; token: string; apiRoot: string } | null;
  logger: Logger;
  fetch?: typeof fetch;
  /** real ms to wait for Telegram's file server to answer before a 502 */
  upstreamTimeoutMs?: number;
}

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
    const serve = (file: StoredFile) => {
      const headers = {
        "content-type": file.mimeType,
        "content-length": String(file.size),
        "content-disposition": `attachment; filename="${file.fileName}"`,
      };
      // a HEAD (download managers send one first) opens nothing: an unread stream would keep its descriptor
      if (c.req.method === "HEAD") return new Response(null, { headers });
      const body = Readable.toWeb(deps.store.open(file.path)) as unknown as ReadableStream;
      return new Response(body, { headers });
    };
    if (p.k === "out") {
      if (!deps.store.contains(p.p)) return c.json({ error: "not_found" }, 404);
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
    let upstream: Response;
    // bounds the wait for Telegram's answer, not the (possibly long) download after it
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), deps.upstreamTimeoutMs ?? 30_000);
    try {
      upstream = await doFetch(`${apiRoot}/file/bot${token}/${filePath}`, {
        method: c.req.method === "HEAD" ? "HEAD" : "GET",
        signal: abort.signal,
      });
    } catch (err) {
      // never the error itself: its message may quote the URL, which holds the bot token
      deps.logger.warn(
        { error: err instanceof Error ? err.name : "unknown" },
        "file proxy: Telegram file unreachable",
      );
      return c.json({ error: "upstream" }, 502);
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
