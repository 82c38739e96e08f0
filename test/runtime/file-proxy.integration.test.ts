import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { Api } from "grammy";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTelegramStandIn, type TelegramStandIn } from "../../sandbox/playground/telegram";
import { solidPng } from "../../sandbox/playground/telegram/images";
import { createMediaStore } from "../../src/platform/storage/media-store";
import { signFileToken } from "../../src/platform/storage/signed-tokens";
import { fileProxyRoutes } from "../../src/runtime/http/file-proxy";
import { captureLogs } from "../support/log-capture";

const secret = "file-proxy-secret-0123456789abcdefghij";
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/** The file proxy's odd paths: HEAD requests, and Telegram's file server unreachable. */
describe("the file proxy", () => {
  let root: string;
  let tg: TelegramStandIn;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "msb-file-proxy-"));
    await mkdir(join(root, "g"), { recursive: true });
    await writeFile(join(root, "g", "0.png"), solidPng(8, 8));
    tg = await startTelegramStandIn({ rules: { flood: false } });
  });
  afterAll(async () => {
    await tg?.close();
    await rm(root, { recursive: true, force: true });
  });

  test("HEAD on a result link answers its headers and opens no file (an unread stream keeps its descriptor)", async () => {
    const { logger } = captureLogs();
    const store = createMediaStore(root);
    let opened = 0;
    const counting = {
      ...store,
      open: (path: string) => {
        opened++;
        return store.open(path);
      },
    };
    const app = fileProxyRoutes({
      signingSecret: secret,
      now: Date.now,
      store: counting,
      telegram: null,
      logger,
    });
    const link = `/files/${signFileToken(secret, { k: "out", p: "g/0.png", e: inAnHour() })}`;
    for (let i = 0; i < 20; i++) {
      const res = await app.request(link, { method: "HEAD" });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
    }
    expect(opened).toBe(0);
    const got = await app.request(link);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(solidPng(8, 8));
    expect(opened).toBe(1);
  });

  test("Telegram's file server unreachable: a 502 and a warning without the token, never a 500", async () => {
    const { logger, lines } = captureLogs();
    const user = tg.user();
    const fileId = await user.sendPhoto({ width: 16, height: 16 }).then((m) => m.photo!.at(-1)!.file_id);
    const app = fileProxyRoutes({
      signingSecret: secret,
      now: Date.now,
      store: createMediaStore(root),
      telegram: { api: new Api(tg.token, { apiRoot: tg.apiRoot }), token: tg.token, apiRoot: tg.apiRoot },
      logger,
      fetch: async (input) => {
        throw new TypeError(`fetch failed: ${String(input)}`);
      },
    });
    const res = await app.request(`/files/${signFileToken(secret, { k: "tg", f: fileId, e: inAnHour() })}`);
    expect(res.status).toBe(502);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.map((l) => l.msg)).toContain("file proxy: Telegram file unreachable");
    expect(JSON.stringify(lines)).not.toContain(tg.token.split(":")[1]!);
  });

  describe("served by node (the relay writes to node's response itself)", () => {
    const token = "123456:file-proxy-node";
    let onFile: (req: IncomingMessage, res: ServerResponse) => void = () => {};
    const closers: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const close of closers.splice(0)) await close();
    });
    async function listen(server: ReturnType<typeof createServer> | ReturnType<typeof serve>) {
      if (!server.listening) await new Promise<void>((r) => server.once("listening", () => r()));
      closers.push(() => new Promise<void>((r) => server.close(() => r())));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
    async function proxy() {
      const telegram = createServer((req, res) => {
        if (req.url?.startsWith(`/bot${token}/getFile`)) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              ok: true,
              result: { file_id: "f", file_unique_id: "u", file_path: "docs/f.bin" },
            }),
          );
          return;
        }
        onFile(req, res);
      }).listen(0, "127.0.0.1");
      const apiRoot = await listen(telegram);
      const { logger, lines } = captureLogs();
      const app = fileProxyRoutes({
        signingSecret: secret,
        now: Date.now,
        store: createMediaStore(root),
        telegram: { api: new Api(token, { apiRoot }), token, apiRoot },
        logger,
      });
      const base = await listen(serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }));
      const link = `${base}/files/${signFileToken(secret, { k: "tg", f: "f", e: inAnHour() })}`;
      return { link, lines, base };
    }

    test("a result file, and HEAD on a Telegram file", async () => {
      const { base, link } = await proxy();
      const out = `${base}/files/${signFileToken(secret, { k: "out", p: "g/0.png", e: inAnHour() })}`;
      const got = await fetch(out);
      expect(got.headers.get("content-type")).toBe("image/png");
      expect(Buffer.from(await got.arrayBuffer())).toEqual(solidPng(8, 8));
      onFile = (req, res) => {
        res.writeHead(200, { "content-type": "video/mp4", "content-length": "1000" });
        res.end(req.method === "HEAD" ? undefined : Buffer.alloc(1000));
      };
      const head = await fetch(link, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe("1000");
      const body = await fetch(link);
      expect((await body.arrayBuffer()).byteLength).toBe(1000);
    });

    test("Telegram's file server hanging up: a 502, the token in no log line", async () => {
      const { link, lines } = await proxy();
      onFile = (req) => req.socket.destroy();
      const res = await fetch(link);
      expect(res.status).toBe(502);
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      expect(lines.map((l) => l.msg)).toContain("file proxy: Telegram file unreachable");
      expect(JSON.stringify(lines)).not.toContain(token.split(":")[1]!);
    });

    test("the client gone mid-way: the upstream connection is closed, no error logged", async () => {
      const { link, lines } = await proxy();
      const upstreamClosed = new Promise<void>((resolve) => {
        onFile = (_req, res) => {
          res.writeHead(200, { "content-type": "video/mp4", "content-length": String(10 * 1024 * 1024) });
          res.write(Buffer.alloc(64 * 1024));
          res.once("close", () => resolve());
        };
      });
      const abort = new AbortController();
      const res = await fetch(link, { signal: abort.signal });
      const reader = res.body!.getReader();
      await reader.read();
      abort.abort();
      await upstreamClosed;
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    });
  });
});
