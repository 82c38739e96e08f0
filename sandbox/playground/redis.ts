import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { resolve } from "node:path";
import { onPath } from "../../src/platform/lib/on-path";

export interface PlaygroundRedis {
  url: string;
  /** where it came from, for the start-up message */
  source: "REDIS_URL" | "local" | "child";
  stop(): Promise<void>;
}

export class RedisUnavailableError extends Error {
  constructor() {
    super(
      [
        "The playground needs Redis (for the job queues) and found none:",
        "  - REDIS_URL is not set,",
        "  - nothing answers on 127.0.0.1:6379,",
        "  - and `redis-server` is not on PATH, so it cannot start one itself.",
        "Install Redis (Debian/Ubuntu: `sudo apt-get install redis-server`, macOS: `brew install redis`)",
        "and run this command again, or set REDIS_URL=redis://host:port.",
      ].join("\n"),
    );
    this.name = "RedisUnavailableError";
  }
}

/** Sends PING and resolves true on +PONG (or an auth demand: something Redis-like answers). */
export function answersPing(host: string, port: number, timeoutMs = 700): Promise<boolean> {
  return new Promise((done) => {
    const socket = new Socket();
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once("error", () => finish(false));
    socket.connect(port, host, () => socket.write("PING\r\n"));
    socket.once("data", (chunk) => finish(/^\+PONG|^-NOAUTH/.test(chunk.toString())));
  });
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/**
 * Redis for the playground: REDIS_URL when set, else 127.0.0.1:6379 when it
 * answers, else a `redis-server` child with its data under `dataDir/redis`.
 */
export async function providePlaygroundRedis(
  env: { REDIS_URL?: string | undefined },
  dataDir: string,
): Promise<PlaygroundRedis> {
  if (env.REDIS_URL) return { url: env.REDIS_URL, source: "REDIS_URL", stop: async () => {} };
  if (await answersPing("127.0.0.1", 6379)) {
    return { url: "redis://127.0.0.1:6379", source: "local", stop: async () => {} };
  }
  if (!onPath("redis-server")) throw new RedisUnavailableError();
  const dir = resolve(dataDir, "redis");
  mkdirSync(dir, { recursive: true });
  return { ...(await startRedisServer(dir, { persist: true })), source: "child" };
}

/**
 * A `redis-server` child on 127.0.0.1 (`redis-server` must be on PATH), with its files in
 * `dir`: its data kept there only with `persist`. At `port`, or a free one.
 */
export async function startRedisServer(
  dir: string,
  options: { persist: boolean; port?: number },
): Promise<{ url: string; stop(): Promise<void> }> {
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(
    "redis-server",
    [
      ...["--bind", "127.0.0.1", "--port", String(port), "--dir", dir, "--save", ""],
      ...["--appendonly", options.persist ? "yes" : "no"],
    ],
    { stdio: "ignore" },
  );
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const deadline = Date.now() + 10_000;
  while (!(await answersPing("127.0.0.1", port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`redis-server did not start (port ${port}, data in ${dir})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
