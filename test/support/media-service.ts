import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseBuffer } from "music-metadata";
import { createMediaClient, type MediaClient } from "../../src/platform/media-service/client";
import type { Task } from "../../src/platform/media-service/schemas";
import { classifyTask, type TaskOutcome } from "../../src/platform/media-service/task-status";

/** Test helpers: a file host, a webhook receiver, WAV files, waiting. */

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (d: Buffer) => parts.push(d));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

/** Serves files the simulator must download: public ones, a login-protected one, missing ones. */
export async function startFileHost() {
  const files = new Map<string, { bytes: Buffer; contentType: string }>();
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    hits.push(path);
    if (path.startsWith("/private/")) {
      res.writeHead(401, { "www-authenticate": "Basic" }).end("login required");
      return;
    }
    const file = files.get(path);
    if (!file) {
      res.writeHead(404).end("not found");
      return;
    }
    res
      .writeHead(200, { "content-type": file.contentType, "content-length": file.bytes.length })
      .end(file.bytes);
  });
  const url = await listen(server);
  return {
    url,
    hits,
    put(path: string, bytes: Buffer, contentType: string): string {
      files.set(path, { bytes, contentType });
      return `${url}${path}`;
    },
    close: () => close(server),
  };
}
export type FileHost = Awaited<ReturnType<typeof startFileHost>>;

export interface ReceivedWebhook {
  body: string;
  headers: Record<string, string | undefined>;
}

/** Collects webhook posts; answers each with the next status of `statuses` (then 200). */
export async function startWebhookReceiver(statuses: number[] = []) {
  const received: ReceivedWebhook[] = [];
  const answers = [...statuses];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(",") : v;
    received.push({ body, headers });
    res.writeHead(answers.shift() ?? 200).end("ok");
  });
  const url = await listen(server);
  return { url: `${url}/hook`, received, close: () => close(server) };
}

/** A mono 8-bit PCM WAV of a tone, `seconds` long. */
export function wav(seconds: number, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + samples, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate, 28); // byte rate
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write("data", 36, "ascii");
  header.writeUInt32LE(samples, 40);
  const data = Buffer.alloc(samples);
  for (let i = 0; i < samples; i++)
    data[i] = 128 + Math.round(60 * Math.sin((2 * Math.PI * 440 * i) / sampleRate));
  return Buffer.concat([header, data]);
}

/** Polls `check` (real time) until it returns a value other than undefined. */
export async function waitFor<T>(
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("waitFor: condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Polls the task through the client until it is no longer running. */
export async function settle(client: MediaClient, id: string): Promise<{ task: Task; outcome: TaskOutcome }> {
  return waitFor(async () => {
    const task = await client.getTask(id);
    const outcome = classifyTask(task);
    return outcome.outcome === "running" ? undefined : { task, outcome };
  });
}

export async function download(url: string): Promise<Buffer> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

export async function mediaInfo(bytes: Buffer) {
  const m = await parseBuffer(bytes, undefined, { duration: true });
  return m.format;
}

export function clientFor(
  sim: { url: string; apiKey: string },
  extra: Partial<Parameters<typeof createMediaClient>[0]> = {},
) {
  return createMediaClient({ baseUrl: sim.url, apiKey: sim.apiKey, retryBaseMs: 1, ...extra });
}

/** A raw POST, bypassing the client's own validation, to see the service's answer. */
export async function rawPost(
  sim: { url: string; apiKey: string },
  path: string,
  body: unknown,
  key = sim.apiKey,
) {
  const res = await fetch(`${sim.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return {
    status: res.status,
    json: json as { error?: { code?: string; message?: string } } & Record<string, unknown>,
  };
}

/** Waits until no task of the simulator is still running, so balances can be compared. */
export function quiet(sim: { tasks(): Array<{ completed_at: string | null }> }): Promise<true> {
  return waitFor(() => (sim.tasks().every((t) => t.completed_at !== null) ? true : undefined));
}
