import { readdir, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Readable } from "node:stream";
import { serve } from "@hono/node-server";
import { Api } from "grammy";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { deliverOutputs } from "../../../src/domain/generations/deliver/send-outputs";
import { createMediaStore } from "../../../src/platform/storage/media-store";
import { signFileToken } from "../../../src/platform/storage/signed-tokens";
import { fileProxyRoutes } from "../../../src/runtime/http/file-proxy";
import { type DeliveryRig, startDeliveryRig } from "../../support/delivery-rig";
import { captureLogs } from "../../support/log-capture";
import { pseudoRandom, sha256Of } from "../../support/pseudo-random";

const MB = 1024 * 1024;
const secret = "large-files-secret-0123456789abcdefghij";

/** Resolves once `ready()` holds, polling; rejects after `timeoutMs` with `what`. */
async function until(ready: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Serves `size` pseudo-random bytes, but holds the second half back until
 * `gate` resolves: a relay that buffered the whole body before passing any of
 * it on would never open the gate, and the test fails instead of hanging.
 */
function gatedBody(res: ServerResponse, seed: string, size: number, gate: () => Promise<void>): void {
  const chunks = [...pseudoRandom(seed, size)];
  const half = Math.floor(chunks.length / 2);
  const first = Readable.from(chunks.slice(0, half));
  first.pipe(res, { end: false });
  first.once("end", () => {
    gate().then(
      () => Readable.from(chunks.slice(half)).pipe(res),
      () => res.destroy(),
    );
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("large files are relayed streamed, byte for byte", () => {
  test("a 20 MB user file reaches the service through the file proxy while Telegram is still sending it", async () => {
    const size = 20 * MB;
    const seed = "user-upload";
    const token = "123456:large-files-token";
    let received = 0;
    // Telegram's Bot API and file server, for one file
    const telegram = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith(`/bot${token}/getFile`)) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            ok: true,
            result: {
              file_id: "big",
              file_unique_id: "big-u",
              file_size: size,
              file_path: "documents/big.mp4",
            },
          }),
        );
        return;
      }
      if (req.url === `/file/bot${token}/documents/big.mp4`) {
        res.writeHead(200, { "content-type": "video/mp4", "content-length": String(size) });
        // the rest follows once the service has had a good part of the file through the proxy
        gatedBody(res, seed, size, () =>
          until(async () => received >= 4 * MB, "the proxy passed nothing on"),
        );
        return;
      }
      res.writeHead(404).end();
    });
    const apiRoot = await listen(telegram);
    closers.push(() => void telegram.close());
    const app = fileProxyRoutes({
      signingSecret: secret,
      now: Date.now,
      store: createMediaStore("/nonexistent"),
      telegram: { api: new Api(token, { apiRoot }), token, apiRoot },
      logger: captureLogs().logger,
    });
    const proxy = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((r) => proxy.once("listening", () => r()));
    closers.push(() => new Promise<void>((r) => proxy.close(() => r())));
    const port = (proxy.address() as AddressInfo).port;

    const link = signFileToken(secret, { k: "tg", f: "big", e: Math.floor(Date.now() / 1000) + 600 });
    const res = await fetch(`http://127.0.0.1:${port}/files/${link}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(size));
    const got: Buffer[] = [];
    for await (const chunk of res.body!) {
      got.push(Buffer.from(chunk));
      received += chunk.length;
    }
    expect(received).toBe(size);
    expect(sha256Of(got)).toBe(sha256Of(pseudoRandom(seed, size)));
  });

  describe("a 50 MB output", () => {
    let rig: DeliveryRig;
    beforeAll(async () => {
      rig = await startDeliveryRig(secret);
    });
    afterAll(async () => rig?.close());

    test("is written to our storage as it downloads, then uploaded to Telegram whole", async () => {
      const size = 50 * MB;
      const seed = "service-output";
      const g = rig.generation("video", []);
      // the download's temporary file: `0.mp4.<unique>.part`
      const written = async () => {
        const names = await readdir(join(rig.root, g.id)).catch(() => [] as string[]);
        const partial = names.find((n) => n.startsWith("0.mp4.") && n.endsWith(".part"));
        return partial ? ((await stat(join(rig.root, g.id, partial)).catch(() => null))?.size ?? 0) : 0;
      };
      const service = createServer((_req, res) => {
        res.writeHead(200, { "content-type": "video/mp4", "content-length": String(size) });
        // the second half only once the first is on disk: the copy must not wait for the whole body
        gatedBody(res, seed, size, () =>
          until(async () => (await written()) >= 8 * MB, "the download was not written as it came"),
        );
      });
      const base = await listen(service);
      closers.push(() => void service.close());

      const delivered = await deliverOutputs({ ...g, outputs: [{ url: `${base}/out.mp4` }] }, rig.deps());

      expect(delivered.fileKinds).toEqual(["video"]);
      const uploaded = rig.tg.fileBytes(delivered.fileIds[0]!);
      expect(uploaded.length).toBe(size);
      expect(sha256Of([uploaded])).toBe(sha256Of(pseudoRandom(seed, size)));
      const stored = await stat(join(rig.root, g.id, "0.mp4"));
      expect(stored.size).toBe(size);
    });
  });
});
