import { readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { Hono } from "hono";

/**
 * Where the page may be framed: Telegram's web clients (web.telegram.org/k and /a) and
 * our own origin (the playground opens the app in an iframe as those clients do).
 * No inline script and no other origin: media come through our signed /files/ URLs,
 * which a bucket store answers with a redirect to `mediaOrigin` (a redirect's target
 * must be allowed too); blob: only for previews of files picked on the device.
 */
export function miniAppCsp(mediaOrigin?: string): string {
  const media = ["'self'", "blob:", ...(mediaOrigin ? [mediaOrigin] : [])].join(" ");
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${media}`,
    `media-src ${media}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self' https://web.telegram.org",
  ].join("; ");
}

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

/** Vite's hashed file names: a changed file is a new name, so a copy may be kept for good */
const assetName = /^[\w-]+\.(js|css|svg)$/;

interface Loaded {
  raw: Buffer;
  gzip: Buffer;
  type: string;
}

/**
 * The Mini App's built page (dist/miniapp), mounted under /app by the web role.
 * index.html is revalidated on every open (it names the current assets); assets are
 * cached for a year. Files are read and gzipped once: no proxy in front is assumed.
 * Anything else under the mount (the API) is left to the routes after this one.
 */
export function miniAppPage(deps: { distDir: string; mediaOrigin?: string | undefined }): Hono {
  const csp = miniAppCsp(deps.mediaOrigin);
  const app = new Hono();
  const cache = new Map<string, Loaded>();
  const load = (relative: string): Loaded | undefined => {
    const known = cache.get(relative);
    if (known) return known;
    const file = join(deps.distDir, relative);
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
    const raw = readFileSync(file);
    const loaded = {
      raw,
      gzip: gzipSync(raw, { level: 9 }),
      type: contentTypes[extname(file)] ?? "application/octet-stream",
    };
    cache.set(relative, loaded);
    return loaded;
  };

  app.get("/*", async (c, next) => {
    // the mount point, whatever it is: this route's pattern is `<mount>/*`
    const mount = c.req.routePath.slice(0, -2);
    const tail = c.req.path.slice(mount.length);
    if (tail === "") {
      const url = new URL(c.req.url);
      return c.redirect(`${url.pathname}/${url.search}`, 301);
    }
    const isIndex = tail === "/" || tail === "/index.html";
    const asset = tail.startsWith("/assets/") ? tail.slice("/assets/".length) : undefined;
    if (!isIndex && !(asset && assetName.test(asset))) return next();
    const file = load(isIndex ? "index.html" : join("assets", asset!));
    if (!file) {
      if (isIndex) return c.text("The Mini App's page is not built: run `npm run build`.", 503);
      return next();
    }
    const gzip = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
    const headers: Record<string, string> = {
      "content-type": file.type,
      "cache-control": isIndex ? "no-cache" : "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      vary: "accept-encoding",
    };
    if (isIndex) {
      headers["content-security-policy"] = csp;
      headers["referrer-policy"] = "no-referrer";
    }
    if (gzip) headers["content-encoding"] = "gzip";
    return c.body(new Uint8Array(gzip ? file.gzip : file.raw), 200, headers);
  });
  return app;
}
