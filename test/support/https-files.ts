import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpsRequest, createServer as httpsServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";

/** A self-signed certificate for localhost, 127.0.0.1 and 127.0.0.2, made now with openssl. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "msb-tls-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:127.0.0.2",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    return {
      key: readFileSync(join(dir, "key.pem"), "utf8"),
      cert: readFileSync(join(dir, "cert.pem"), "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A WAV file of `seconds` of silence (8 kHz, 8-bit, mono): its header states
 * the exact length. `junkBytes` puts a chunk of that size before the format
 * chunk, so the length is only found after reading past it.
 */
export function silentWav(seconds: number, junkBytes = 0): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(seconds * rate, 0x80);
  const junk =
    junkBytes > 0
      ? Buffer.concat([chunkHeader("JUNK", junkBytes), Buffer.alloc(junkBytes)])
      : Buffer.alloc(0);
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0); // PCM
  fmt.writeUInt16LE(1, 2); // mono
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE(rate, 8); // bytes per second
  fmt.writeUInt16LE(1, 12); // block align
  fmt.writeUInt16LE(8, 14); // bits per sample
  const body = Buffer.concat([
    Buffer.from("WAVE"),
    junk,
    chunkHeader("fmt ", fmt.length),
    fmt,
    chunkHeader("data", data.length),
    data,
  ]);
  return Buffer.concat([chunkHeader("RIFF", body.length), body]);
}

function chunkHeader(id: string, size: number): Buffer {
  const b = Buffer.alloc(8);
  b.write(id, 0, "ascii");
  b.writeUInt32LE(size, 4);
  return b;
}

export type Route = (
  req: import("node:http").IncomingMessage,
  res: import("node:http").ServerResponse,
) => void;

export interface HttpsFiles {
  /** https://127.0.0.1:<port> */
  url: string;
  port: number;
  ca: string;
  /** requests received per path */
  hits: Map<string, number>;
  route(path: string, handler: Route): void;
  close(): Promise<void>;
}

/** An HTTPS server on every local address (127.0.0.2 reaches it too), serving what the test routes. */
export async function startHttpsFiles(): Promise<HttpsFiles> {
  const { key, cert } = selfSignedCertificate();
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const server: Server = httpsServer({ key, cert }, (req, res) => {
    const path = new URL(req.url ?? "/", "https://x").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (handler) return handler(req, res);
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    ca: cert,
    hits,
    route: (path, handler) => void routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves `bytes` with a length and a type. */
export const serveBytes =
  (bytes: Buffer, type = "audio/wav"): Route =>
  (_req, res) => {
    res.writeHead(200, { "content-type": type, "content-length": String(bytes.length) }).end(bytes);
  };

/**
 * `fetch` over node:https trusting `ca` (the global fetch has no option for a
 * certificate of our own): what the media simulator downloads test links with.
 * Follows redirects like fetch's default; http links go to the global fetch.
 */
export function fetchTrusting(ca: string): typeof fetch {
  const once = (url: URL, signal: AbortSignal | undefined) =>
    new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
      const req = httpsRequest(url, { ca, agent: false, ...(signal ? { signal } : {}) }, resolve);
      req.once("error", reject);
      req.end();
    });
  const trusted = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    let url = new URL(input instanceof Request ? input.url : input);
    // plain http (the bot's own file proxy) needs no certificate
    if (url.protocol === "http:") return fetch(url, init);
    const signal = init?.signal ?? undefined;
    for (let hop = 0; hop < 20; hop++) {
      const res = await once(url, signal);
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
        res.resume();
        url = new URL(res.headers.location, url);
        continue;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (typeof value === "string") headers.set(name, value);
      }
      const body =
        status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
      return new Response(body, { status, headers });
    }
    throw new TypeError("too many redirects");
  };
  return trusted as typeof fetch;
}
