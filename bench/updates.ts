import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { User } from "grammy/types";
import { createTestDatabase, type TestDatabase } from "../test/support/db";
import { freePort, redisUrl } from "../test/support/harness";
import { textUpdate } from "../test/support/web-fleet";
import { median } from "./percentile";
import { startBotApiSink } from "./support/bot-api-sink";
import { report } from "./support/report";
import { startCommand } from "./support/start-flags";

/**
 * Webhook-mode updates per second: the bot (built `dist/main.js`, web role)
 * against a bare grammY bot with the same handler shape (the /balance reads
 * and one reply, no middleware) and one replying a fixed text, each a process
 * of its own on the same Postgres, in one run. 500 users send /balance over
 * 32 connections, as Telegram's webhook would; replies go to a local Bot API
 * that answers at once. Besides the rate: CPU ms and Postgres statements (round trips) per
 * update, the bot's own and Postgres's. The contenders are started and warmed
 * up once (/start, then BENCH_WARM_UP (4) /balance per user), then take turns
 * over BENCH_ROUNDS phases (9) of BENCH_PER_USER (4) /balance per user; the
 * ratio is the median of the phases' ratios.
 * Target (issue 39): bot ≥ 0.5 × the bare bot that replies a fixed text.
 * Run `npm run bench:updates` (builds first).
 */
const users = Number(process.env.BENCH_USERS ?? 500);
/** /balance per user before the phases (BENCH_WARM_UP) */
const warmUpRounds = Number(process.env.BENCH_WARM_UP ?? 4);
/** /balance per user in each phase */
const perUser = Number(process.env.BENCH_PER_USER ?? 4);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const secret = "bench-webhook-secret-0123456789";
const token = "123456:bench-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaa";

interface Contender {
  name: string;
  child: ChildProcess;
  url: string;
}

async function startContender(name: string, args: string[], env: Record<string, string>, ready: string) {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), 60_000);
    const watch = (c: Buffer) => {
      out += c.toString();
      if (out.includes(ready)) {
        clearTimeout(timer);
        // from here on its output is only drained (a full pipe would stall its logger)
        child.stdout?.off("data", watch);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on("data", watch);
    child.once("exit", (code) => reject(new Error(`${name} exited (${code})`)));
  });
  // the bot's readiness: Telegram answered and the webhook is set
  for (let i = 0; i < 200; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    if (!res || res.status === 200 || res.status === 404) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { name, child, url: `http://127.0.0.1:${port}` } satisfies Contender;
}

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime, in clock ticks (100 per second)
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU ms of every Postgres process on the machine (the server's share of an update's cost) */
function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.includes("(postgres)")) total += cpuMs(Number(entry));
    } catch {
      // the process ended between the listing and the read
    }
  }
  return total;
}

async function post(url: string, body: string): Promise<number> {
  const res = await fetch(`${url}/telegram`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

async function load(url: string, bodies: readonly string[]): Promise<number> {
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < bodies.length) {
        const status = await post(url, bodies[next++]!);
        if (status !== 200) failed++;
      }
    }),
  );
  return failed;
}

/**
 * Statements the contender sent to Postgres so far, as it counts them (the bot's
 * /metrics; the bare bots answer the same line): pg_stat_database is no measure here,
 * a busy backend reports its counts only every few seconds.
 */
async function statements(c: Contender): Promise<number> {
  const text = await (await fetch(`${c.url}/metrics`)).text();
  const found = /^msb_db_statements_total (\d+)$/m.exec(text)?.[1];
  if (found === undefined) throw new Error(`${c.name} reports no msb_db_statements_total`);
  return Number(found);
}

/**
 * Every user known (the bot registers them), and code paths hot: the rates of
 * both bots still climbed over the first phases after a single /balance each.
 */
async function warmUp(c: Contender, people: readonly User[]): Promise<void> {
  await load(
    c.url,
    people.map((p) => JSON.stringify(textUpdate(p, "/start"))),
  );
  for (let i = 0; i < warmUpRounds; i++)
    await load(
      c.url,
      people.map((p) => JSON.stringify(textUpdate(p, "/balance"))),
    );
}

async function measure(c: Contender, people: readonly User[], sink: { sends: number }) {
  const bodies: string[] = [];
  for (let i = 0; i < perUser; i++)
    for (const p of people) bodies.push(JSON.stringify(textUpdate(p, "/balance")));
  const statements0 = await statements(c);
  const cpu0 = cpuMs(c.child.pid!);
  const pg0 = postgresCpuMs();
  const sends0 = sink.sends;
  const t0 = performance.now();
  const failed = await load(c.url, bodies);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuMs(c.child.pid!) - cpu0;
  const pgCpu = postgresCpuMs() - pg0;
  const sent = (await statements(c)) - statements0;
  return {
    name: c.name,
    updates: bodies.length,
    failed,
    replies: sink.sends - sends0,
    seconds: Number(seconds.toFixed(2)),
    updates_per_second: Math.round(bodies.length / seconds),
    cpu_ms_per_update: Number((cpu / bodies.length).toFixed(2)),
    postgres_cpu_ms_per_update: Number((pgCpu / bodies.length).toFixed(2)),
    db_statements_per_update: Number((sent / bodies.length).toFixed(2)),
  };
}

async function stop(c: Contender): Promise<void> {
  if (c.child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    c.child.once("exit", () => resolve());
    c.child.kill("SIGTERM");
    setTimeout(() => c.child.kill("SIGKILL"), 10_000).unref();
  });
}

const people: User[] = Array.from({ length: users }, (_, i) => ({
  id: 5_000_000 + i,
  is_bot: false,
  first_name: `User${i}`,
  language_code: "en",
}));

/** node flags for every contender, for a look inside (e.g. BENCH_NODE_FLAGS="--cpu-prof") */
const extraFlags = process.env.BENCH_NODE_FLAGS?.split(" ").filter(Boolean) ?? [];
/** how `npm start` runs the bot: the bot is measured as it ships */
const shipped = startCommand();

type Result = Awaited<ReturnType<typeof measure>>;
const contenders = ["bot", "bare-same-shape", "bare-fixed-text"] as const;
type ContenderName = (typeof contenders)[number];

interface Running {
  contender: Contender;
  db: TestDatabase;
  sink: Awaited<ReturnType<typeof startBotApiSink>>;
}

async function launch(contender: ContenderName): Promise<Running> {
  const db = await createTestDatabase({ max: 2 });
  const sink = await startBotApiSink(123456);
  const prefix = `msb-bench-updates-${process.pid}-${contender}`;
  const env: Record<string, string> = {
    BOT_TOKEN: token,
    TELEGRAM_API_ROOT: sink.apiRoot,
    TELEGRAM_WEBHOOK_SECRET: secret,
    DATABASE_URL: db.url,
  };
  try {
    const c =
      contender === "bot"
        ? await startContender(
            contender,
            // as `npm start` runs it
            [...shipped.flags, ...extraFlags, "dist/main.js"],
            {
              ...shipped.env,
              ...env,
              ROLE: "web",
              BOT_MODE: "webhook",
              PUBLIC_URL: "http://127.0.0.1:9",
              MEDIA_API_URL: "http://127.0.0.1:9",
              MEDIA_API_KEY: "bench-media-key",
              REDIS_URL: redisUrl,
              REDIS_PREFIX: prefix,
              SIGNING_SECRET: "bench-signing-secret-0123456789abcdef0123",
              MEDIA_WEBHOOK_SECRET: "bench-media-webhook-secret",
              WELCOME_CREDITS: "100",
              LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
            },
            "media studio bot started",
          )
        : await startContender(
            contender,
            [...extraFlags, "--import", "tsx", "bench/support/bare-bot.ts"],
            { ...env, BARE_SHAPE: contender === "bare-same-shape" ? "same" : "fixed" },
            "bare ready",
          );
    await warmUp(c, people);
    return { contender: c, db, sink };
  } catch (err) {
    await sink.close();
    await db.drop();
    throw err;
  }
}

async function shutDown(r: Running): Promise<void> {
  await stop(r.contender);
  await r.sink.close();
  await r.db.drop();
}

const ratio = (a: Result | undefined, b: Result | undefined) =>
  a && b ? Number((a.updates_per_second / b.updates_per_second).toFixed(2)) : undefined;

// The contenders run side by side for the whole bench and take turns, phase after phase,
// each phase in a rotated order: this machine's speed drifts by tens of percent within a
// minute (a shared VM), and a ratio taken within one phase (seconds apart), then the
// median over phases, is what that drift leaves alone. A contender is idle while another
// is measured.
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 9));
/** BENCH_ONLY: a comma-separated choice of contenders (e.g. "bot,bare-same-shape") */
const only = process.env.BENCH_ONLY?.split(",");
const chosen = contenders.filter((c) => !only || only.includes(c));
const running = new Map<ContenderName, Running>();
const byRound: Partial<Record<ContenderName, Result>>[] = [];
try {
  for (const contender of chosen) running.set(contender, await launch(contender));
  for (let round = 0; round < rounds; round++) {
    const results: Partial<Record<ContenderName, Result>> = {};
    const order = chosen.map((_, i) => chosen[(i + round) % chosen.length]!);
    for (const contender of order) {
      const r = running.get(contender)!;
      results[contender] = await measure(r.contender, people, r.sink);
    }
    byRound.push(results);
  }
} finally {
  for (const r of running.values()) await shutDown(r);
}

const ratios = (other: ContenderName) =>
  byRound.flatMap((r) => {
    const x = ratio(r.bot, r[other]);
    return x === undefined ? [] : [x];
  });
const toSame = ratios("bare-same-shape");
const toFixed = ratios("bare-fixed-text");
/** a contender's round at the median rate, as its figures */
const typical = (name: ContenderName): Result | undefined => {
  const runs = byRound.flatMap((r) => (r[name] ? [r[name]] : []));
  if (runs.length === 0) return undefined;
  const rate = median(runs.map((r) => r.updates_per_second));
  return runs.reduce((best, r) =>
    Math.abs(r.updates_per_second - rate) < Math.abs(best.updates_per_second - rate) ? r : best,
  );
};
const ratioToSame = toSame.length > 0 ? Number(median(toSame).toFixed(2)) : null;
const ratioToFixed = toFixed.length > 0 ? Number(median(toFixed).toFixed(2)) : null;
report("updates", {
  bench: "updates",
  node: process.version,
  users,
  per_user: perUser,
  connections,
  rounds,
  results: chosen.flatMap((name) => typical(name) ?? []),
  ratio_to_same_shape: ratioToSame,
  ratio_to_fixed_text: ratioToFixed,
  ratios_by_round: { to_same_shape: toSame, to_fixed_text: toFixed },
  rates_by_round: Object.fromEntries(
    chosen.map((name) => [name, byRound.map((r) => r[name]?.updates_per_second ?? null)]),
  ),
  target: { ratio_to_fixed_text: 0.5 },
  met: (ratioToFixed ?? 0) >= 0.5,
});
process.exit(0);
