import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The media service's file host, as delivery tests need it: files served at
 * paths, an optional file for any other path, and outages on demand.
 */
export async function startFileServer(options: { fallback?: { body: Buffer; type: string } } = {}) {
  const served = new Map<string, { body: Buffer; type: string }>();
  let outage: 404 | 500 | undefined;
  const server = createServer((req, res) => {
    const file = served.get(req.url ?? "") ?? options.fallback;
    if (outage || !file) return void res.writeHead(outage ?? 404).end();
    res.writeHead(200, { "content-type": file.type, "content-length": file.body.length }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    /** serves `body` at `path`; returns its URL */
    serve(path: string, body: Buffer, type: string): string {
      served.set(path, { body, type });
      return `${base}${path}`;
    },
    /** the link to `path` stops working */
    unserve(path: string): void {
      served.delete(path);
    },
    /** every download answers this status until set back to undefined */
    setOutage(status: 404 | 500 | undefined): void {
      outage = status;
    },
    size: () => served.size,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FileServer = Awaited<ReturnType<typeof startFileServer>>;
