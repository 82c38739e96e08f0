import { setMaxListeners } from "node:events";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { type Clock, systemClock } from "../../src/platform/lib/clock";
import type { Logger } from "../../src/platform/lib/logger";
import { limits, type Operation } from "../../src/platform/media-service/catalog";
import { createApp, type RecordedRequest } from "./app";
import { OperatorAccount, type OperatorBalance } from "./credits";
import { createEngine, type PublicTask } from "./engine";
import { type FaultControls, FaultState } from "./faults";
import { ffmpegAvailable } from "./ffmpeg";
import { createFileStore } from "./files";
import { createWebhookSender, type WebhookDelivery, type WebhookTarget } from "./webhook-sender";

export type { RecordedRequest } from "./app";
export type { PublicTask } from "./engine";
export type { FaultControls } from "./faults";
export type { WebhookDelivery, WebhookTarget } from "./webhook-sender";

export interface SimulatorOptions {
  apiKey: string;
  /** 0 = a random free port (default) */
  port?: number;
  host?: string;
  clock?: Clock;
  /** processing time per operation, in clock ms */
  latencyMs?: Partial<Record<Operation, number>>;
  /** video tasks running longer than this fail and release (default 15 minutes, clock ms) */
  videoTimeLimitMs?: number;
  webhook?: WebhookTarget;
  /** delays between webhook attempts after a failure (clock ms) */
  webhookRetryDelaysMs?: readonly number[];
  /** base of the output file URLs; default the listening address */
  publicUrl?: string;
  operatorCredits?: number;
  downloadTimeoutMs?: number;
  /** how input files are downloaded (tests: a fetch trusting their own HTTPS server's certificate) */
  fetch?: typeof fetch;
  /** how many requests `requests` keeps (oldest dropped first); default 10 000 */
  maxRecordedRequests?: number;
  logger?: Pick<Logger, "info" | "warn" | "error">;
}

export interface Simulator {
  url: string;
  apiKey: string;
  close(): Promise<void>;
  faults: FaultControls;
  /** every request received, in order */
  requests: RecordedRequest[];
  /** every webhook delivery attempt, in order */
  webhookDeliveries: WebhookDelivery[];
  task(id: string): PublicTask | undefined;
  tasks(): PublicTask[];
  balance(): OperatorBalance;
  grantCredits(amount: number): void;
  setWebhook(target: WebhookTarget | undefined): void;
}

const defaultLatencyMs: Record<Operation, number> = {
  image: 3000,
  edit: 4000,
  video: 20_000,
  dub: 15_000,
};

export async function startSimulator(opts: SimulatorOptions): Promise<Simulator> {
  const clock = opts.clock ?? systemClock;
  const faults = new FaultState();
  const account = new OperatorAccount(opts.operatorCredits ?? 1_000_000);
  const files = createFileStore();
  const ffmpeg = ffmpegAvailable();
  if (!ffmpeg) {
    opts.logger?.info(
      "ffmpeg is not on the PATH: dubbing and video outputs are 2-second fixtures, whatever the length",
    );
  }
  const requests: RecordedRequest[] = [];
  const webhookDeliveries: WebhookDelivery[] = [];
  let webhook = opts.webhook;
  let baseUrl = opts.publicUrl?.replace(/\/+$/, "") ?? "";

  const stopWebhooks = new AbortController();
  setMaxListeners(0, stopWebhooks.signal);
  const sender = createWebhookSender({
    clock,
    signal: stopWebhooks.signal,
    retryDelaysMs: opts.webhookRetryDelaysMs ?? [1000, 5000, 30_000, 120_000, 600_000],
    timeoutMs: 10_000,
    onDelivery: (d) => webhookDeliveries.push(d),
    onError: (e) => opts.logger?.warn({ err: e }, "webhook delivery crashed"),
  });
  const engine = createEngine({
    clock,
    account,
    faults,
    files,
    latencyMs: { ...defaultLatencyMs, ...opts.latencyMs },
    videoTimeLimitMs: opts.videoTimeLimitMs ?? limits.videoProcessingLimitMs,
    downloadTimeoutMs: opts.downloadTimeoutMs ?? 30_000,
    ffmpeg,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    publicUrl: () => baseUrl,
    webhook: () => webhook,
    deliverWebhook: sender.deliver,
    logger: opts.logger,
  });
  const app = createApp({
    apiKey: opts.apiKey,
    engine,
    faults,
    files,
    requests,
    maxRecordedRequests: opts.maxRecordedRequests ?? 10_000,
    now: () => clock.now(),
    sleep: (ms) => clock.sleep(ms),
  });

  const host = opts.host ?? "127.0.0.1";
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? 0, hostname: host }, () => resolve(s));
    s.once("error", reject);
    // as a real service, idle connections are kept well past a client's reuse of them: Node's 5 s
    // default races the client's own 4 s on a loaded machine and resets a request in flight (ECONNRESET)
    if ("keepAliveTimeout" in s) s.keepAliveTimeout = 65_000;
  });
  const { port } = server.address() as AddressInfo;
  const reachableHost =
    host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  const url = `http://${reachableHost}:${port}`;
  if (!baseUrl) baseUrl = url;

  return {
    url,
    apiKey: opts.apiKey,
    faults,
    requests,
    webhookDeliveries,
    task: (id) => engine.get(id),
    tasks: () => engine.all(),
    balance: () => account.balance(),
    grantCredits: (amount) => account.grant(amount),
    setWebhook: (target) => {
      webhook = target;
    },
    async close() {
      stopWebhooks.abort();
      await engine.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
      // the tasks are stopped and their ffmpeg processes gone: the temporary files can go
      await files.close();
    },
  };
}
