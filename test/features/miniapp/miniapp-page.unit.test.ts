import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { miniAppPageDir } from "../../../src/features/miniapp/bundle";
import { miniAppPage } from "../../../src/features/miniapp/page";

const script = "console.log('the app');".repeat(50);

describe("the Mini App's page route", () => {
  let dist: string;
  let app: Hono;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), "msb-miniapp-dist-"));
    await mkdir(join(dist, "assets"));
    await writeFile(
      join(dist, "index.html"),
      '<!doctype html><script type="module" src="./assets/index-Ab1_x.js"></script>',
    );
    await writeFile(join(dist, "assets", "index-Ab1_x.js"), script);
    await writeFile(join(dist, "secret.txt"), "not a page file");
    await writeFile(join(dist, "assets", ".env"), "not a page file either");
    await writeFile(join(dist, "assets", "notes.txt"), "nor this");
    app = new Hono();
    app.route("/app", miniAppPage({ distDir: dist }));
    // mounted after the page, as the API could be: the page must leave its paths alone
    app.get("/app/api/me", (c) => c.json({ api: true }));
  });
  afterAll(() => rm(dist, { recursive: true, force: true }));

  test("/app redirects to /app/ (the page's relative assets need the slash), keeping the query", async () => {
    const res = await app.request("/app?x=1");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/app/?x=1");
  });

  test("the page comes with its content security policy and is revalidated on every open", async () => {
    const res = await app.request("/app/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const csp = Object.fromEntries(
      (res.headers.get("content-security-policy") ?? "").split(";").map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(csp["default-src"]).toEqual(["'self'"]);
    expect(csp["script-src"]).toEqual(["'self'"]);
    expect(csp["connect-src"]).toEqual(["'self'"]);
    expect(csp["img-src"]).toEqual(["'self'", "blob:"]);
    expect(csp["media-src"]).toEqual(["'self'", "blob:"]);
    expect(csp["frame-ancestors"]).toEqual(["'self'", "https://web.telegram.org"]);
    expect((await app.request("/app/index.html")).status).toBe(200);
  });

  test("hashed assets are cached for good, gzipped for a client that takes it", async () => {
    const zipped = await app.request("/app/assets/index-Ab1_x.js", {
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get("cache-control")).toContain("immutable");
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    const bytes = Buffer.from(await zipped.arrayBuffer());
    expect(bytes.length).toBeLessThan(script.length / 5);
    expect(gunzipSync(bytes).toString()).toBe(script);

    const plain = await app.request("/app/assets/index-Ab1_x.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(script);
  });

  test("nothing but the page and its assets: other files, missing ones and paths out of dist/ are 404", async () => {
    for (const path of [
      "/app/secret.txt",
      "/app/assets/.env",
      "/app/assets/notes.txt",
      "/app/assets/missing-1.js",
      "/app/assets/../secret.txt",
      "/app/assets/..%2Fsecret.txt",
      "/app/assets/%2e%2e/secret.txt",
      "/app/../package.json",
    ])
      expect((await app.request(path)).status, path).toBe(404);
  });

  test("the API's paths under the same mount reach the API", async () => {
    const res = await app.request("/app/api/me");
    expect(await res.json()).toEqual({ api: true });
  });

  test("without a build the page says so (503), not a bare 404", async () => {
    const empty = new Hono().route("/app", miniAppPage({ distDir: join(dist, "nothing-here") }));
    const res = await empty.request("/app/");
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("npm run build");
  });
});

/** The page `npm run build` made (vitest's global setup builds it before any file runs). */
describe("the built Mini App page", () => {
  test("has no inline script (the CSP allows none) and weighs under 150 KB compressed on first open", async () => {
    const html = await readFile(join(miniAppPageDir, "index.html"), "utf8");
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [tag, body] of scripts) {
      expect(tag).toMatch(/\bsrc="\.\/assets\/[\w-]+\.js"/);
      expect(body?.trim()).toBe("");
    }
    expect(html).not.toMatch(/\son\w+=/i);
    const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[\w.-]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith(".css"))).toBe(true);
    let gzipped = gzipSync(html).length;
    for (const asset of assets) gzipped += gzipSync(await readFile(join(miniAppPageDir, asset))).length;
    expect(gzipped).toBeLessThan(150 * 1024);
  });
});
