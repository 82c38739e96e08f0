import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import {
  startTelegramStandIn,
  type TelegramRulesInput,
  type TelegramStandIn,
  type TestUser,
} from "../../sandbox/playground/telegram";
import { type Simulator, type SimulatorOptions, startSimulator } from "../../sandbox/simulator/server";
import { type Config, loadConfig } from "../../src/platform/config/config";
import { type Clock, scaledClock } from "../../src/platform/lib/clock";
import { createLogger } from "../../src/platform/lib/logger";
import type { LinkProbeOptions } from "../../src/platform/links/link-duration";
import { createMediaClient } from "../../src/platform/media-service/client";
import {
  type Runtime,
  type RuntimePolicy,
  type RuntimeTiming,
  secretsOf,
  startRuntime,
} from "../../src/runtime/runtime";
import { createTestDatabase, type TestDatabase } from "./db";

import { freePort } from "./free-port";
import { redisUrl } from "./test-services";

export { freePort, redisUrl };

/** A Bot API call that failed in passing is tried again at once in tests, not after a quarter second. */
export const testTelegramRetry = { attempts: 6, firstDelayMs: 10, maxDelayMs: 80 };

export interface HarnessOptions {
  /** how much faster than real time the clock runs (default 100) */
  clockFactor?: number;
  simulator?: Partial<SimulatorOptions>;
  telegramRules?: TelegramRulesInput;
  timing?: Partial<RuntimeTiming>;
  policy?: Partial<RuntimePolicy>;
  env?: Record<string, string>;
  /** start no runtime: the test starts its own (e.g. in a child process) */
  noRuntime?: boolean;
  /** collect the runtime's log lines here (at the level of env.LOG_LEVEL) */
  logs?: string[];
  /** how the bot reads dubbing links (a test's own HTTPS server: its certificate and address) */
  linkProbe?: LinkProbeOptions;
  /** Telegram as a local Bot API server (uploads up to 2,000 MB, getFile's path on disk), the bot told so */
  localBotApi?: boolean;
}

/**
 * Everything an end-to-end test needs, for real: a fresh Postgres database, a
 * Redis key prefix of its own, the media service simulator, the Telegram
 * stand-in, and the bot's runtime (web + workers) in this process, on a fast clock.
 */
export async function startHarness(options: HarnessOptions = {}) {
  const clockFactor = options.clockFactor ?? 100;
  const clockOrigin = Date.now();
  const clock: Clock = scaledClock(clockFactor, clockOrigin);
  const db: TestDatabase = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), "msb-e2e-"));
  const tg: TelegramStandIn = await startTelegramStandIn({
    clock,
    rules: options.telegramRules ?? { flood: false },
    ...(options.localBotApi ? { localServer: { filesDir: join(dataDir, "telegram-bot-api") } } : {}),
  });
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const webhookSecret = `e2e-webhook-${randomBytes(8).toString("hex")}`;
  const sim: Simulator = await startSimulator({
    apiKey: "e2e-media-key",
    clock,
    webhook: { url: `${publicUrl}/webhooks/media/${webhookSecret}` },
    latencyMs: { image: 5_000, edit: 6_000, video: 30_000, dub: 20_000 },
    ...options.simulator,
  });
  const prefix = `msb-e2e-${randomBytes(6).toString("hex")}`;
  const env: Record<string, string> = {
    BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
    MEDIA_API_URL: sim.url,
    MEDIA_API_KEY: "e2e-media-key",
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: publicUrl,
    SIGNING_SECRET: "e2e-signing-secret-0123456789abcdef0123",
    MEDIA_WEBHOOK_SECRET: webhookSecret,
    DATA_DIR: dataDir,
    WELCOME_CREDITS: "100",
    ADMIN_IDS: "1",
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "silent",
    ...(options.localBotApi ? { TELEGRAM_LOCAL_FILES: "1" } : {}),
    ...options.env,
  };
  const config: Config = loadConfig(env);
  const timing: Partial<RuntimeTiming> = {
    // slow enough that a missing enqueue shows: tests of the reconciler set their own
    reconcileEveryMs: 24 * 3_600_000,
    adoptionGraceMs: 60_000,
    operatorPauseMs: 60_000,
    pollingTimeoutSeconds: 1,
    jobLockMs: 5_000,
    drainMs: 3_000,
    telegramRetry: testTelegramRetry,
    ...options.timing,
  };
  const sink = options.logs;
  const logger = createLogger(
    env.LOG_LEVEL ?? "silent",
    sink ? { write: (line: string) => void sink.push(line) } : undefined,
    secretsOf(config),
  );
  // a worker-only runtime serves its health on a port of its own, not the web role's
  const inProcessConfig: Config =
    config.role === "worker" ? { ...config, http: { ...config.http, port: 0 } } : config;
  const start = () =>
    startRuntime(inProcessConfig, {
      clock,
      logger,
      skipMigrations: true,
      timing,
      ...(options.policy ? { policy: options.policy } : {}),
      ...(options.linkProbe ? { linkProbe: options.linkProbe } : {}),
      media: createMediaClient({
        baseUrl: sim.url,
        apiKey: "e2e-media-key",
        retryBaseMs: 20,
        retryMaxMs: 200,
      }),
    });
  let runtime: Runtime | undefined = options.noRuntime ? undefined : await start();
  /** runtimes started in child processes and not yet exited: stop() kills what a test left */
  const children = new Set<ChildProcess>();

  /**
   * Starts a runtime in a child process on the same clock, to kill it for real.
   * `extraEnv` picks its role (ROLE), a fault point (MSB_FAULT_POINT), and so on;
   * `nodeFlags` are node's own (a bench passes npm start's). `from: "build"` runs the
   * built bundle as npm start does (`npm run build` first): it takes the environment
   * alone, on the real clock and the default timing, and is ready once it logs its
   * start (LOG_LEVEL info or lower).
   */
  async function spawnRuntime(
    extraEnv: Record<string, string>,
    nodeFlags: readonly string[] = [],
    from: "source" | "build" = "source",
  ): Promise<ChildProcess> {
    const entry = from === "build" ? ["dist/main.js"] : ["--import", "tsx", "test/support/worker-process.ts"];
    const readyLine = from === "build" ? "media studio bot started" : "runtime ready";
    const child = spawn(process.execPath, [...nodeFlags, ...entry], {
      env: {
        ...process.env,
        ...env,
        ...extraEnv,
        CLOCK_FACTOR: String(clockFactor),
        CLOCK_ORIGIN: String(clockOrigin),
        RUNTIME_TIMING: JSON.stringify(timing),
        RUNTIME_POLICY: JSON.stringify(options.policy ?? {}),
        MEDIA_RETRY_BASE_MS: "20",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let errTail = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
      errTail = (errTail + chunk.toString()).slice(-2_000);
    });
    children.add(child);
    child.once("exit", () => children.delete(child));
    await new Promise<void>((resolve, reject) => {
      let out = "";
      const watch = (chunk: Buffer) => {
        out += chunk.toString();
        if (!out.includes(readyLine)) return;
        // from here on its output is only drained
        child.stdout?.off("data", watch);
        child.stdout?.resume();
        resolve();
      };
      child.stdout?.on("data", watch);
      child.once("exit", (code) => reject(new Error(`runtime exited early (${code}): ${errTail.trim()}`)));
    });
    return child;
  }

  /** Starts the worker role in a child process on the same clock, to kill it for real. */
  const spawnWorker = () => spawnRuntime({ ROLE: "worker", PORT: "0" });

  return {
    clock,
    spawnWorker,
    spawnRuntime,
    db,
    tg,
    sim,
    env,
    config,
    get runtime(): Runtime {
      if (!runtime) throw new Error("no runtime running");
      return runtime;
    },
    async stopRuntime() {
      await runtime?.stop();
      runtime = undefined;
    },
    async startRuntime() {
      if (runtime) throw new Error("a runtime is already running");
      runtime = await start();
      return runtime;
    },
    async stop() {
      await Promise.all(
        [...children].map(async (child) => {
          const exited = new Promise((resolve) => child.once("exit", resolve));
          child.kill("SIGKILL");
          await exited;
        }),
      );
      await runtime?.stop().catch(() => undefined);
      await sim.close();
      await tg.close();
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
      await deleteRedisKeys(prefix);
    },
  };
}
export type Harness = Awaited<ReturnType<typeof startHarness>>;

/** Deletes every key below `prefix`: what FLUSHALL does to one bot, leaving other tests' keys alone. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    await redis.quit();
  }
}

/** Polls `probe` until it returns something other than undefined (for state Postgres reaches a moment after Telegram). */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The user's latest generation once it reaches `state`. */
export async function generationIn(h: Harness, userId: number, state: string, timeoutMs?: number) {
  try {
    return await eventually(async () => {
      const [g] = await h.runtime.generations.recent(userId, 1);
      return g?.state === state ? g : undefined;
    }, timeoutMs);
  } catch {
    const [g] = await h.runtime.generations.recent(userId, 1);
    throw new Error(
      `generation of user ${userId} never reached ${state}: ${JSON.stringify(g ?? null)}\n${h.tg.transcript(userId)}`,
    );
  }
}

/** A user who has sent /start and got the welcome. */
export async function startedUser(h: Harness, language = "en"): Promise<TestUser> {
  const user = h.tg.user({ language });
  await user.send("/start");
  await user.waitFor((m) => Boolean(m.text));
  return user;
}

/** Presses ✅ on the latest offer the bot made; returns the offer (it becomes the status message). */
export async function confirmOffer(user: TestUser) {
  const offer = await user.waitFor((m) =>
    m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅")),
  );
  await user.press(/✅/, { message: offer });
  return offer;
}

/** `/image <prompt>` and Confirm: the shortest way to a paid generation. */
export async function requestImage(user: TestUser, prompt = "a quiet harbour") {
  await user.send(`/image ${prompt}`);
  return confirmOffer(user);
}
