import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";

/**
 * In a process of its own: a server started before the file proxy's module is
 * loaded (the sandbox starts its simulator first) makes @hono/node-server's
 * Response the global one, and with it the proxy's "already sent" marker. A
 * relayed file must still be answered once: its bytes whole, no second head
 * ("ERR_HTTP_HEADERS_SENT" on stderr), the connection not cut.
 */
const script = `
import { getRequestListener, serve } from "@hono/node-server";
getRequestListener(() => new Response("first server"));
const { fileProxyRoutes } = await import("./src/runtime/http/file-proxy.ts");
const { createMediaStore } = await import("./src/platform/storage/media-store.ts");
const { signFileToken } = await import("./src/platform/storage/signed-tokens.ts");
const secret = "relay-order-secret-0123456789abcdefghij";
const logger = { info() {}, warn() {}, error() {}, debug() {} };
const app = fileProxyRoutes({ signingSecret: secret, now: Date.now, store: createMediaStore(process.argv[1]), telegram: null, logger });
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, async (info) => {
  const token = signFileToken(secret, { k: "out", p: "g/0.mp4", e: Math.floor(Date.now() / 1000) + 60 });
  const sizes = [];
  for (let i = 0; i < 3; i++) {
    const res = await fetch("http://127.0.0.1:" + info.port + "/files/" + token);
    sizes.push(res.status + ":" + (await res.arrayBuffer()).byteLength);
  }
  console.log(JSON.stringify(sizes));
  server.close();
});
`;

test("a relayed file is answered once even when a server started before the proxy was loaded", async () => {
  const root = await mkdtemp(join(tmpdir(), "msb-relay-"));
  try {
    await mkdir(join(root, "g"));
    await writeFile(join(root, "g", "0.mp4"), Buffer.alloc(3 * 1024 * 1024, 7));
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, root], {
      cwd: process.cwd(),
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.stderr).not.toContain("ERR_HTTP_HEADERS_SENT");
    expect(JSON.parse(run.stdout.trim().split("\n").pop() ?? "[]")).toEqual([
      `200:${3 * 1024 * 1024}`,
      `200:${3 * 1024 * 1024}`,
      `200:${3 * 1024 * 1024}`,
    ]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
