import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import { Readable } from "node:stream";
import { and, count, eq } from "drizzle-orm";
import { Redis } from "ioredis";
import type { TestUser } from "../sandbox/playground/telegram";
import { generationQueues } from "../src/domain/generations/queues";
import { stageQueues } from "../src/domain/generations/stages";
import { createSyncHints } from "../src/domain/generations/sync/sync-hints";
import { generations, users } from "../src/platform/db/schema";
import { systemClock } from "../src/platform/lib/clock";
import { createQueues } from "../src/platform/queue/queues";
import { signFileToken } from "../src/platform/storage/signed-tokens";
import { startedUser, startHarness } from "../test/support/harness";
import { pseudoRandom, sha256Of } from "../test/support/pseudo-random";
import { median } from "./percentile";
import { report } from "./support/report";
import { startCommand } from "./support/start-flags";

/**
 * Resident memory of the bot as shipped: `dist/main.js` with npm start's
 * environment and node flags, each role a process of its own, against Postgres, Redis, the
 * media service simulator and the Telegram stand-in (both in this process,
 * so their memory is not counted). Measured from /proc/<pid>/status:
 *
 * - each role idle (web, worker, all);
 * - the web role in webhook mode after 10,000 updates posted to /telegram by the stand-in;
 * - the worker after 1,000 image generations through the simulator;
 * - the growth while the worker relays a 50 MB output (service → our storage → Telegram upload),
 *   and while the web role's file proxy relays a 20 MB user file to the service.
 *
 * Under sustained load RSS is sampled repeatedly; the slope (least squares,
 * past the first third of the run) says whether it levels off.
 * Targets: ≤ 150 MB per process, growth ≤ 32 MB while relaying.
 * Run with `npm run bench:memory` (builds first); BENCH_SAVE=1 writes bench/results/memory.json.
 */
const MB = 1024 * 1024;
const targets = { processMb: 150, relayGrowthMb: 32 };
const updatesTotal = Number(process.env.BENCH_UPDATES ?? 10_000);
const updateUsers = 1_000;
const generationsTotal = Number(process.env.BENCH_GENERATIONS ?? 1_000);
const generationUsers = 200;
const outputBytes = 50 * MB;
const inputBytes = 20 * MB;

/** The V8 heap as the process reports it on /metrics (prom-client's default metrics). */
async function heapOf(url: string) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? 0) / MB;
  return {
    heap_used_mb: round(value("msb_nodejs_heap_size_used_bytes")),
    heap_total_mb: round(value("msb_nodejs_heap_size_total_bytes")),
    external_mb: round(value("msb_nodejs_external_memory_bytes")),
  };
}

interface Memory {
  rssMb: number;
  hwmMb: number;
}

function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: round(kb("VmRSS") / 1024), hwmMb: round(kb("VmHWM") / 1024) };
}

/**
 * What the RSS is made of (/proc/<pid>/smaps_rollup): anonymous memory (the heaps, malloc)
 * against file-backed pages (node's binary and libraries, shared with every other node
 * process on the host), and the proportional share (PSS) that counts shared pages once.
 */
function breakdownOf(pid: number) {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(rollup)?.[1] ?? 0);
  return {
    pss_mb: round(kb("Pss") / 1024),
    anonymous_mb: round(kb("Anonymous") / 1024),
    file_backed_mb: round((kb("Rss") - kb("Anonymous")) / 1024),
  };
}

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Least-squares slope of y over x. */
function slope(points: Array<{ x: number; y: number }>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

const h = await startHarness({
  noRuntime: true,
  env: {
    LOG_LEVEL: "info",
    BOT_MODE: "webhook",
    TELEGRAM_WEBHOOK_SECRET: "bench-webhook-secret-0123456789",
    WELCOME_CREDITS: "1000",
    TELEGRAM_SENDS_PER_SECOND: "1000",
  },
});
const shipped = startCommand();
/** BENCH_SNAPSHOTS=<dir>: a heap snapshot of each role there, idle and after its load */
const snapshotDir = process.env.BENCH_SNAPSHOTS;
const flags = [
  ...(process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? shipped.flags),
  ...(snapshotDir ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${snapshotDir}`] : []),
];

/** Writes a heap snapshot of `pid` (BENCH_SNAPSHOTS), waiting until the file is complete. */
async function snapshot(pid: number): Promise<void> {
  if (!snapshotDir) return;
  const before = new Set(readdirSync(snapshotDir));
  process.kill(pid, "SIGUSR2");
  // the process writes it synchronously, then answers again
  for (let i = 0; i < 600; i++) {
    await sleep(500);
    const written = readdirSync(snapshotDir).filter((f) => !before.has(f) && f.endsWith(".heapsnapshot"));
    if (written.length > 0 && memoryOf(pid).rssMb > 0) {
      const size = () => statSync(`${snapshotDir}/${written[0]}`).size;
      const first = size();
      await sleep(1_000);
      if (size() === first) return;
    }
  }
}
const children = new Set<ChildProcess>();

/** `node <start flags> dist/main.js` in the role asked; resolves once it logged its start. */
async function spawnRole(role: "web" | "worker" | "all", port: number) {
  const child = spawn(process.execPath, [...flags, "dist/main.js"], {
    env: { ...shipped.env, ...process.env, ...h.env, ROLE: role, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  // read and dropped: a full pipe would block the child's logger
  let head = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} did not start:\n${head}`)), 60_000);
    const look = (chunk: Buffer) => {
      if (head.length < 100_000) head += chunk.toString();
      const started = /"http":"([^"]+)"[^\n]*media studio bot started/.exec(head);
      if (started?.[1]) {
        clearTimeout(timer);
        resolve(started[1]);
      }
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.once("exit", (code) => reject(new Error(`${role} exited (${code}):\n${head}`)));
  });
  return { child, url };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const gone = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await gone;
  children.delete(child);
}

/** RSS once start-up settled: five samples a second apart, their median. */
async function idle(pid: number) {
  await sleep(3_000);
  const samples: Memory[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(memoryOf(pid));
    await sleep(1_000);
  }
  return { rss_mb: median(samples.map((s) => s.rssMb)), hwm_mb: memoryOf(pid).hwmMb, ...breakdownOf(pid) };
}

/** Samples `pid` every `everyMs` while `work` runs: the baseline before, the highest RSS seen during. */
async function growthDuring<T>(pid: number, work: () => Promise<T>, everyMs = 20) {
  const before = memoryOf(pid).rssMb;
  let peak = before;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, memoryOf(pid).rssMb);
      await sleep(everyMs);
    }
  })();
  try {
    const result = await work();
    return { result, before_mb: before, peak_mb: peak, growth_mb: round(peak - before) };
  } finally {
    running = false;
    await sampler;
  }
}

/**
 * `/image <prompt>`, Confirm, and the picture: the test helpers' steps with
 * waits long enough for 200 users at once. Returns the picture's message id.
 */
async function orderImage(user: TestUser, prompt: string, after: number): Promise<number> {
  const long = { timeoutMs: 300_000 };
  await user.send(`/image ${prompt}`);
  const offer = await user.waitFor(
    (m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text.includes("✅")),
    { ...long, after },
  );
  await user.press(/✅/, { message: offer });
  const picture = await user.waitFor((m) => m.photo !== undefined, { ...long, after: offer });
  return picture.message_id;
}

const loadBefore = loadavg();
const result: Record<string, unknown> = {
  bench: "memory",
  started: new Date().toISOString(),
  node: process.version,
  node_flags: flags,
  node_env: shipped.env,
  cpus: cpus().length,
  targets: { process_rss_mb_max: targets.processMb, relay_growth_mb_max: targets.relayGrowthMb },
};
const webPort = Number(new URL(h.config.publicUrl).port);
try {
  // ---- each role alone, idle
  const idleRss: Record<string, { rss_mb: number; hwm_mb: number }> = {};
  for (const role of ["web", "worker", "all"] as const) {
    const { child, url } = await spawnRole(role, role === "worker" ? 0 : webPort);
    idleRss[role] = { ...(await idle(child.pid!)), ...(await heapOf(url)) };
    await snapshot(child.pid!);
    await stopChild(child);
  }
  result.idle = idleRss;

  const { child: web, url: webUrl } = await spawnRole("web", webPort);
  const { child: worker, url: workerUrl } = await spawnRole("worker", 0);
  const webPid = web.pid!;
  const workerPid = worker.pid!;
  await sleep(2_000);

  // ---- the web role under 10,000 updates, posted by the stand-in to /telegram
  const people = Array.from({ length: updateUsers }, () => h.tg.user());
  const commands = ["/start", "/balance", "/help", "/balance", "/history"];
  const updateSamples: Array<{ updates: number; rss_mb: number }> = [];
  const t0 = Date.now();
  let sent = 0;
  for (let round = 0; sent < updatesTotal; round++) {
    for (const u of people) {
      if (sent >= updatesTotal) break;
      await u.send(commands[round % commands.length]!);
      sent++;
    }
    await h.tg.idle();
    updateSamples.push({ updates: sent, rss_mb: memoryOf(webPid).rssMb });
  }
  const updateSeconds = (Date.now() - t0) / 1000;
  const warm = updateSamples.slice(Math.floor(updateSamples.length / 3));
  const webAfter = memoryOf(webPid);
  await snapshot(webPid);
  result.web_updates = {
    updates: sent,
    users: updateUsers,
    seconds: round(updateSeconds),
    refused: h.tg.deliveries.filter((d) => d.status !== 200).length,
    rss_mb_after: webAfter.rssMb,
    hwm_mb: webAfter.hwmMb,
    ...breakdownOf(webPid),
    heap_after: await heapOf(webUrl),
    samples: updateSamples,
    slope_mb_per_1000_updates_after_warmup: round(
      slope(warm.map((s) => ({ x: s.updates / 1000, y: s.rss_mb }))),
      2,
    ),
  };

  // ---- the worker through 1,000 generations (the simulator makes them, the stand-in receives them)
  const delivered = async () => {
    const [row] = await h.db.db
      .select({ n: count() })
      .from(generations)
      .where(eq(generations.state, "delivered"));
    return row?.n ?? 0;
  };
  const makers = await Promise.all(Array.from({ length: generationUsers }, () => startedUser(h)));
  const perUser = Math.ceil(generationsTotal / generationUsers);
  const generationSamples: Array<{ delivered: number; rss_mb: number }> = [];
  let making = true;
  const sampler = (async () => {
    while (making) {
      generationSamples.push({ delivered: await delivered(), rss_mb: memoryOf(workerPid).rssMb });
      await sleep(1_000);
    }
  })();
  const g0 = Date.now();
  await Promise.all(
    makers.map(async (u) => {
      let last = 0;
      for (let i = 0; i < perUser; i++) last = await orderImage(u, `a lighthouse, take ${i}`, last);
    }),
  );
  making = false;
  await sampler;
  const generationSeconds = (Date.now() - g0) / 1000;
  const workerAfter = memoryOf(workerPid);
  await snapshot(workerPid);
  const made = await delivered();
  const warmGen = generationSamples.filter((s) => s.delivered >= made / 3);
  result.worker_generations = {
    delivered: made,
    seconds: round(generationSeconds),
    rss_mb_after: workerAfter.rssMb,
    hwm_mb: workerAfter.hwmMb,
    ...breakdownOf(workerPid),
    heap_after: await heapOf(workerUrl),
    samples: generationSamples.filter((_, i) => i % 5 === 0),
    slope_mb_per_100_generations_after_warmup: round(
      slope(warmGen.map((s) => ({ x: s.delivered / 100, y: s.rss_mb }))),
      2,
    ),
    web_rss_mb_after: memoryOf(webPid).rssMb,
  };

  // ---- a 50 MB output: service → our storage → Telegram upload, by the worker
  const outputSeed = `output-${randomUUID()}`;
  const outputServer = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "video/mp4", "content-length": String(outputBytes) });
    Readable.from(pseudoRandom(outputSeed, outputBytes)).pipe(res);
  });
  await new Promise<void>((r) => outputServer.listen(0, "127.0.0.1", r));
  const outputUrl = `http://127.0.0.1:${(outputServer.address() as AddressInfo).port}/out.mp4`;
  const receiver = makers[0]!;
  const gid = randomUUID();
  const now = new Date();
  await h.db.db.insert(generations).values({
    id: gid,
    requestKey: `bench-${gid}`,
    userId: receiver.id,
    chatId: receiver.chatId,
    language: "en",
    operation: "video",
    params: {
      operation: "video",
      prompt: "waves",
      model: "video-a-v3-turbo",
      duration: 5,
      resolution: "720p",
      aspectRatio: "9:16",
    },
    price: 0,
    holdKey: `bench-${gid}`,
    state: "completed",
    taskId: `bench-${gid}`,
    serviceCredits: 0,
    outputs: [{ url: outputUrl }],
    charged: 0,
    attempts: 1,
    submittedAt: now,
    finishedAt: now,
  });
  const queues = createQueues(h.config.redis, stageQueues);
  const redis = new Redis(h.config.redis.url);
  const relayOut = await growthDuring(workerPid, async () => {
    await generationQueues(queues, systemClock, createSyncHints(redis, h.config.redis.prefix)).deliver(gid);
    for (const until = Date.now() + 300_000; Date.now() < until; await sleep(100)) {
      const [row] = await h.db.db
        .select({ state: generations.state, fileIds: generations.fileIds })
        .from(generations)
        .where(and(eq(generations.id, gid)));
      if (row?.state === "delivered") return row.fileIds as string[];
      if (row?.state === "failed") throw new Error("the 50 MB output was not delivered");
    }
    throw new Error("the 50 MB output was not delivered in time");
  });
  await queues.close();
  await redis.quit();
  outputServer.close();
  const uploaded = h.tg.fileBytes(relayOut.result[0]!);
  const outputIntact =
    uploaded.length === outputBytes &&
    createHash("sha256").update(uploaded).digest("hex") === sha256Of(pseudoRandom(outputSeed, outputBytes));
  result.relay_output = {
    bytes: outputBytes,
    intact: outputIntact,
    worker_rss_mb_before: relayOut.before_mb,
    worker_rss_mb_peak: relayOut.peak_mb,
    growth_mb: relayOut.growth_mb,
  };

  // ---- a 20 MB user file: Telegram → the web role's file proxy → the service
  const inputSeed = `input-${randomUUID()}`;
  const sender = makers[1]!;
  const doc = await sender.sendDocument({
    bytes: Buffer.concat([...pseudoRandom(inputSeed, inputBytes)]),
    mimeType: "video/mp4",
    fileName: "talk.mp4",
  });
  const token = signFileToken(h.config.signingSecret, {
    k: "tg",
    f: doc.document!.file_id,
    e: Math.floor(Date.now() / 1000) + 600,
  });
  const relayIn = await growthDuring(webPid, async () => {
    const res = await fetch(`${h.config.publicUrl}/files/${token}`);
    if (!res.ok || !res.body) throw new Error(`the file proxy answered ${res.status}`);
    const hash = createHash("sha256");
    let size = 0;
    for await (const chunk of res.body) {
      hash.update(chunk);
      size += chunk.length;
    }
    return { size, sha256: hash.digest("hex") };
  });
  result.relay_input = {
    bytes: inputBytes,
    intact:
      relayIn.result.size === inputBytes &&
      relayIn.result.sha256 === sha256Of(pseudoRandom(inputSeed, inputBytes)),
    web_rss_mb_before: relayIn.before_mb,
    web_rss_mb_peak: relayIn.peak_mb,
    growth_mb: relayIn.growth_mb,
  };

  const peakOf = (pid: number) => memoryOf(pid).hwmMb;
  const processes = {
    idle: Object.values(idleRss).every((r) => r.rss_mb <= targets.processMb),
    web_after_updates: webAfter.rssMb <= targets.processMb,
    worker_after_generations: workerAfter.rssMb <= targets.processMb,
    web_peak: peakOf(webPid) <= targets.processMb,
    worker_peak: peakOf(workerPid) <= targets.processMb,
  };
  result.peaks_mb = { web: peakOf(webPid), worker: peakOf(workerPid) };
  result.targets_met = {
    ...processes,
    relay_output_growth: relayOut.growth_mb <= targets.relayGrowthMb && outputIntact,
    relay_input_growth: relayIn.growth_mb <= targets.relayGrowthMb,
  };
  result.all_targets_met = Object.values(result.targets_met as Record<string, boolean>).every(Boolean);
  result.load_average = {
    before: loadBefore.map((x) => round(x, 2)),
    after: loadavg().map((x) => round(x, 2)),
  };
  // the users the bench made, so the counts above can be checked against the database
  const [known] = await h.db.db.select({ n: count() }).from(users);
  result.users_in_database = known?.n ?? 0;

  await stopChild(web);
  await stopChild(worker);
  report("memory", result);
} finally {
  for (const child of children) child.kill("SIGKILL");
  await h.stop();
}
process.exit(0);
