import { randomBytes, randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { solidPng } from "../sandbox/playground/telegram/images";
import type { Operation } from "../src/domain/generations/params";
import { ensureMiniAppPage } from "../src/features/miniapp";
import type { GalleryResponse } from "../src/features/miniapp/contract";
import { rowsOf } from "../src/platform/db/raw-rows";
import { creditAccounts, generations, holds } from "../src/platform/db/schema";
import { openChromium } from "../test/support/chromium";
import { startedUser, startHarness } from "../test/support/harness";
import { appCall, initDataFor } from "../test/support/miniapp";
import { percentile } from "./percentile";
import { report } from "./support/report";

/**
 * The Mini App on a phone. (1) The gallery's page time for a user with 2,000
 * delivered results (BENCH_RESULTS) among other users' rows: the rows and
 * their stored files are written directly, as the deliver step leaves them;
 * then, after a warm-up, the app's walks (the first page, every following
 * page by its cursor, and the same per operation) sequentially and 8 at a
 * time (BENCH_CONCURRENCY), with Postgres's plan of the gallery query.
 * (2) What the first open transfers: the page and every asset it names over
 * HTTP as a browser asks for them, and the same page opened in Chromium with
 * signed launch data (resource timing), before any media. Target: < 150 KB.
 */
const results = Number(process.env.BENCH_RESULTS ?? 2_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const otherUsers = 300;
const otherRowsEach = 60;
const pageSize = 24; // what the app asks for (src/features/miniapp/web/gallery.tsx)
const budgetBytes = 150 * 1024;

/** A fixed sequence (mulberry32), so every run seeds the same mix. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(30);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const png = solidPng(64, 64);

await ensureMiniAppPage();
const h = await startHarness({ clockFactor: 1 });
const db = h.db.db;
const mediaRoot = join(h.env.DATA_DIR!, "media");

type Row = typeof generations.$inferInsert;
type HoldRow = typeof holds.$inferInsert;

const prompts = [
  "a red lighthouse at dusk",
  "a cat in a space suit",
  "rain on a tin roof",
  "an old map of the sea",
];
const imageModels = ["nano-core-2", "nano-pro", "beta-image-2-5-flare", "gamma-5-pro"];
const operationMix: Operation[] = [
  "image",
  "image",
  "image",
  "image",
  "edit",
  "edit",
  "video",
  "video",
  "dub",
];

function paramsOf(operation: Operation): Record<string, unknown> {
  const prompt = pick(prompts);
  const picture = { model: pick(imageModels), imageSize: pick(["1:1", "16:9", "3:4"]), numImages: 1 };
  switch (operation) {
    case "image":
      return { v: 1, operation, prompt, ...picture, numImages: pick([1, 1, 2, 4]) };
    case "edit":
      return { v: 1, operation, prompt, ...picture, images: [{ kind: "telegram", fileId: fileId() }] };
    case "video":
      return {
        v: 1,
        operation,
        prompt,
        model: "alpha-speed",
        duration: 5,
        resolution: "720p",
        aspectRatio: "16:9",
      };
    case "dub":
      return {
        v: 1,
        operation,
        source: { kind: "telegram", fileId: fileId(), mimeType: "audio/mpeg" },
        targetLanguage: "es",
        sourceLanguage: "auto",
        durationSeconds: 42,
        kind: "audio",
      };
  }
}

const fileId = () => `AgACAgIAAxkBAAI${randomBytes(24).toString("base64url")}`;

/** What the service returned and what Telegram made of each sent file, as the deliver step records them. */
function outputsOf(operation: Operation, params: Record<string, unknown>) {
  const count = operation === "image" ? Number(params.numImages) : 1;
  const ext = operation === "video" ? "mp4" : operation === "dub" ? "mp3" : "png";
  const kind = operation === "video" ? "video" : operation === "dub" ? "audio" : "photo";
  return Array.from({ length: count }, (_, i) => ({ slot: i, ext, kind }));
}

/** One generation and its hold; `delivered` ones get their stored files under the media store's root. */
async function generation(userId: number, at: Date, state: Row["state"], withFiles: boolean) {
  const id = randomUUID();
  const operation = pick(operationMix);
  const params = paramsOf(operation);
  const price = operation === "video" ? 30 : operation === "dub" ? 20 : 4 * Number(params.numImages ?? 1);
  const outputs = outputsOf(operation, params);
  const delivered = state === "delivered";
  const row: Row = {
    id,
    requestKey: `bench-${id}`,
    userId,
    chatId: userId,
    language: "en",
    operation,
    params,
    price,
    holdKey: `gen-${id}`,
    state,
    taskId: `task_${id}`,
    serviceCredits: price,
    outputs: delivered
      ? outputs.map((o) => ({ url: `https://media.example/out/${id}/${o.slot}.${o.ext}` }))
      : null,
    charged: delivered ? price : null,
    error: delivered ? null : { reason: "service_failed", message: "the service failed" },
    attempts: 1,
    deliveryAttempts: delivered ? 1 : 0,
    statusMessageId: 10,
    deliveredMessageIds: delivered ? outputs.map((o) => 100 + o.slot) : null,
    fileIds: delivered ? outputs.map(() => fileId()) : null,
    fileKinds: delivered ? outputs.map((o) => o.kind) : null,
    submittedAt: at,
    finishedAt: new Date(at.getTime() + 20_000),
    createdAt: at,
    updatedAt: new Date(at.getTime() + 25_000),
  };
  const hold: HoldRow = {
    key: row.holdKey,
    userId,
    amount: price,
    state: delivered ? "charged" : "released",
    chargedAmount: delivered ? price : null,
    createdAt: at,
    resolvedAt: row.finishedAt!,
  };
  if (withFiles && delivered) {
    await mkdir(join(mediaRoot, id), { recursive: true });
    for (const o of outputs) await writeFile(join(mediaRoot, id, `${o.slot}.${o.ext}`), png);
  }
  return { row, hold };
}

async function insert(items: Array<{ row: Row; hold: HoldRow }>): Promise<void> {
  for (let i = 0; i < items.length; i += 500) {
    const batch = items.slice(i, i + 500);
    await db.insert(holds).values(batch.map((b) => b.hold));
    await db.insert(generations).values(batch.map((b) => b.row));
  }
}

/** The bench user's results over the last 90 days (and some that failed), and other users' rows around them. */
async function seed(userId: number): Promise<number> {
  const started = performance.now();
  const now = Date.now();
  const span = 90 * 24 * 3600_000;
  const mine = [];
  for (let i = 0; i < results; i++) {
    mine.push(await generation(userId, new Date(now - span + (i * span) / results), "delivered", true));
  }
  for (let i = 0; i < results / 10; i++) {
    mine.push(await generation(userId, new Date(now - random() * span), pick(["failed", "expired"]), false));
  }
  await insert(mine);
  const others = Array.from({ length: otherUsers }, (_, i) => 7_000_000_000 + i);
  await db.insert(creditAccounts).values(others.map((u) => ({ userId: u, available: 50 })));
  const rows = [];
  for (const u of others) {
    for (let i = 0; i < otherRowsEach; i++) {
      const state = random() < 0.85 ? "delivered" : pick(["failed", "rejected", "expired"] as const);
      rows.push(await generation(u, new Date(now - random() * span), state, false));
    }
  }
  await insert(rows);
  await db.execute(sql`analyze`);
  return Math.round(performance.now() - started);
}

// ---- the gallery query's plan ----------------------------------------------------------

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Scan Direction"?: string;
  "Presorted Key"?: string[];
  "Actual Rows"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

function describePlan(node: PlanNode): string[] {
  const what = [
    node["Node Type"],
    node["Scan Direction"] === "Backward" ? "Backward" : "",
    node["Index Name"] ? `using ${node["Index Name"]}` : "",
    node["Relation Name"] && !node["Index Name"] ? `on ${node["Relation Name"]}` : "",
    node["Presorted Key"] ? `(presorted: ${node["Presorted Key"].join(", ")})` : "",
    `rows=${node["Actual Rows"]}`,
    node["Rows Removed by Filter"] ? `removed by filter=${node["Rows Removed by Filter"]}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return [what, ...(node.Plans ?? []).flatMap((p) => describePlan(p).map((l) => `  ${l}`))];
}

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}

async function explain(userId: number, options: { operation?: Operation; before?: string }) {
  const query = h.runtime.generations.deliveredWithFiles(userId, { limit: pageSize + 1, ...options });
  const rows = rowsOf<{ "QUERY PLAN": Array<{ Plan: PlanNode; "Execution Time": number }> }>(
    await db.execute(sql`explain (analyze, buffers, format json) ${query}`),
  );
  const [top] = rows[0]!["QUERY PLAN"];
  const nodes = flatten(top!.Plan);
  const onGenerations = nodes.filter((n) => n["Relation Name"] === "generations");
  return {
    execution_ms: Math.round(top!["Execution Time"] * 100) / 100,
    indexes: [...new Set(nodes.map((n) => n["Index Name"]).filter(Boolean))],
    seq_scan_on_generations: onGenerations.some((n) => n["Node Type"] === "Seq Scan"),
    full_sort: nodes.some((n) => n["Node Type"] === "Sort"),
    rows_read_from_generations: onGenerations.reduce(
      (sum, n) => sum + (n["Actual Rows"] ?? 0) + (n["Rows Removed by Filter"] ?? 0),
      0,
    ),
    plan: describePlan(top!.Plan),
  };
}

// ---- page times ------------------------------------------------------------------------

type Kind = "first" | "next" | "filtered_first" | "filtered_next";
type Times = Record<Kind, number[]>;
const noTimes = (): Times => ({ first: [], next: [], filtered_first: [], filtered_next: [] });

/** The app's walk: a first page, then "more" until the end; what each page took. */
async function walk(initData: string, operation: Operation | undefined, times: Times): Promise<number> {
  let before: string | undefined;
  let seen = 0;
  do {
    const q = new URLSearchParams({ limit: String(pageSize) });
    if (operation) q.set("operation", operation);
    if (before) q.set("before", before);
    const started = performance.now();
    const page = await appCall<GalleryResponse>(h, `/gallery?${q}`, { initData });
    const ms = performance.now() - started;
    if (page.status !== 200) throw new Error(`gallery answered ${page.status}: ${JSON.stringify(page.body)}`);
    times[`${operation ? "filtered_" : ""}${before ? "next" : "first"}`].push(ms);
    seen += page.body.items.length;
    before = page.body.next ?? undefined;
  } while (before);
  return seen;
}

const walks: Array<Operation | undefined> = [undefined, "image", "edit", "video", "dub"];

/** Every walk once (all results, then each operation), `lanes` users of the app at once. */
async function walkAll(initData: string, lanes: number): Promise<Times & { seen: number }> {
  const times = noTimes();
  const seen = await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      let n = 0;
      // each lane starts at a different walk, so the kinds interleave
      for (let i = 0; i < walks.length; i++)
        n += await walk(initData, walks[(i + lane) % walks.length], times);
      return n;
    }),
  );
  return { ...times, seen: seen.reduce((a, b) => a + b, 0) };
}

/** The app opened again and again: its first page, of all results and of each operation, `rounds` times per lane. */
async function opens(initData: string, lanes: number, rounds: number): Promise<Times> {
  const times = noTimes();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let i = 0; i < rounds; i++) {
        for (const operation of walks) {
          const q = new URLSearchParams({ limit: String(pageSize), ...(operation ? { operation } : {}) });
          const started = performance.now();
          const page = await appCall(h, `/gallery?${q}`, { initData });
          if (page.status !== 200) throw new Error(`gallery answered ${page.status}`);
          times[operation ? "filtered_first" : "first"].push(performance.now() - started);
        }
      }
    }),
  );
  return times;
}

function merged(...all: Times[]): Times {
  const times = noTimes();
  for (const t of all) for (const k of Object.keys(times) as Kind[]) times[k].push(...t[k]);
  return times;
}

function summary(times: Times) {
  const of = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return {
      requests: xs.length,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: percentile(sorted, 100),
    };
  };
  return {
    first: of(times.first),
    next: of(times.next),
    filtered_first: of(times.filtered_first),
    filtered_next: of(times.filtered_next),
    all: of([...times.first, ...times.next, ...times.filtered_first, ...times.filtered_next]),
  };
}

// ---- first open: what is transferred --------------------------------------------------

/** A GET as a browser makes it: the bytes on the wire (compressed if the server compressed them). */
function get(url: string): Promise<{ status: number; wire: number; encoding: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { "accept-encoding": "gzip, br" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const wire = Buffer.concat(chunks);
        const encoding = res.headers["content-encoding"] ?? "identity";
        resolve({
          status: res.statusCode ?? 0,
          wire: wire.length,
          encoding,
          body: encoding === "gzip" ? gunzipSync(wire) : wire,
        });
      });
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

async function overHttp() {
  const base = `${h.config.publicUrl}/app/`;
  const index = await get(base);
  if (index.status !== 200) throw new Error(`/app/ answered ${index.status}`);
  const html = index.body.toString("utf8");
  const named = [
    ...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g),
    ...html.matchAll(/<link\b[^>]*\brel="(?:stylesheet|modulepreload)"[^>]*\bhref="([^"]+)"/g),
  ].map((m) => new URL(m[1]!, base).href);
  const files: Array<{ path: string; encoding: string; bytes: number; uncompressed: number }> = [
    { path: "/app/", encoding: index.encoding, bytes: index.wire, uncompressed: index.body.length },
  ];
  const lazy: typeof files = [];
  const seen = new Set(named);
  const queue = named.map((url) => ({ url, lazy: false }));
  while (queue.length > 0) {
    const { url, lazy: isLazy } = queue.shift()!;
    const res = await get(url);
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    const entry = {
      path: new URL(url).pathname,
      encoding: res.encoding,
      bytes: res.wire,
      uncompressed: res.body.length,
    };
    (isLazy ? lazy : files).push(entry);
    if (!url.endsWith(".js")) continue;
    // chunks the code imports later (import("./admin-….js")): fetched only when used
    for (const m of res.body.toString("utf8").matchAll(/["'`]\.\/([\w-]+\.(?:js|css))["'`]/g)) {
      const chunk = new URL(m[1]!, url).href;
      if (seen.has(chunk)) continue;
      seen.add(chunk);
      queue.push({ url: chunk, lazy: true });
    }
  }
  const total = files.reduce((s, f) => s + f.bytes, 0);
  return {
    first_open_bytes: total,
    first_open_uncompressed_bytes: files.reduce((s, f) => s + f.uncompressed, 0),
    under_150_kb: total < budgetBytes,
    files,
    lazy_chunks: lazy,
    lazy_bytes: lazy.reduce((s, f) => s + f.bytes, 0),
  };
}

interface Entry {
  name: string;
  initiatorType: string;
  transferSize: number;
  encodedBodySize: number;
  decodedBodySize: number;
  startTime: number;
}

/** The app opened from the menu button in Chromium: every resource it loaded, split at the first media file. */
async function inChromium(user: Awaited<ReturnType<typeof startedUser>>) {
  const browser = await openChromium();
  try {
    const page = await browser.context.newPage();
    const launch = user.openWebApp("menu");
    await page.goto(launch.url, { waitUntil: "networkidle" });
    await page.getByTestId("gallery-item").first().waitFor({ timeout: 20_000 });
    await page.waitForLoadState("networkidle");
    const entries = (await page.evaluate(`(() => [
      ...performance.getEntriesByType("navigation"),
      ...performance.getEntriesByType("resource"),
    ].map((e) => ({ name: e.name, initiatorType: e.initiatorType, transferSize: e.transferSize,
      encodedBodySize: e.encodedBodySize, decodedBodySize: e.decodedBodySize, startTime: e.startTime })))()`)) as Entry[];
    const isMedia = (e: Entry) => new URL(e.name).pathname.startsWith("/files/");
    const app = entries.filter((e) => !isMedia(e));
    const media = entries.filter(isMedia);
    const firstMedia = Math.min(...media.map((e) => e.startTime));
    const sum = (xs: Entry[], k: "transferSize" | "encodedBodySize" | "decodedBodySize") =>
      xs.reduce((s, e) => s + e[k], 0);
    const items = await page.getByTestId("gallery-item").count();
    const api = app.filter((e) => new URL(e.name).pathname.startsWith("/app/api/"));
    return {
      gallery_items_shown: items,
      before_media: {
        requests: app.length,
        transfer_bytes: sum(app, "transferSize"),
        encoded_body_bytes: sum(app, "encodedBodySize"),
        decoded_body_bytes: sum(app, "decodedBodySize"),
        of_which_api_transfer_bytes: sum(api, "transferSize"),
        started_after_first_media: app.filter((e) => e.startTime > firstMedia).map((e) => e.name),
        under_150_kb: sum(app, "transferSize") < budgetBytes,
      },
      resources: app.map((e) => ({
        path: new URL(e.name).pathname + (new URL(e.name).search ? "?…" : ""),
        type: e.initiatorType,
        transfer: e.transferSize,
        encoded: e.encodedBodySize,
        decoded: e.decodedBodySize,
      })),
      media: { requests: media.length, transfer_bytes: sum(media, "transferSize") },
    };
  } finally {
    await browser.close();
  }
}

try {
  const user = await startedUser(h);
  const seedMs = await seed(user.id);
  // one initData for the run, as the app keeps the one it was opened with
  const initData = initDataFor({ id: user.id }, h.tg.token);

  const cursorRow = await h.runtime.generations.deliveredWithFiles(user.id, { limit: results - pageSize });
  const deep = cursorRow.at(-1)?.id;
  const plans = {
    first_page: await explain(user.id, {}),
    deep_cursor_page: await explain(user.id, deep ? { before: deep } : {}),
    dub_first_page: await explain(user.id, { operation: "dub" }),
    dub_deep_cursor_page: await explain(user.id, { operation: "dub", ...(deep ? { before: deep } : {}) }),
  };

  await walkAll(initData, 1); // warm-up: connections, caches, JIT
  const walked = [await walkAll(initData, 1), await walkAll(initData, 1)];
  const sequential = merged(...walked, await opens(initData, 1, 30));
  const concurrent = merged(await walkAll(initData, concurrency), await opens(initData, concurrency, 4));

  // the query alone, from this process, for what the rest of a request adds
  const queryTimes: number[] = [];
  for (let i = 0; i < 100; i++) {
    const started = performance.now();
    await h.runtime.generations.deliveredWithFiles(user.id, { limit: pageSize + 1 });
    queryTimes.push(performance.now() - started);
  }
  queryTimes.sort((a, b) => a - b);

  const result = {
    bench: "miniapp",
    gallery: {
      results,
      other_rows: otherUsers * otherRowsEach,
      seeded_in_ms: seedMs,
      page_size: pageSize,
      results_seen_per_walk_set: walked[0]!.seen,
      sequential_ms: summary(sequential),
      [`concurrent_${concurrency}_ms`]: summary(concurrent),
      query_alone_first_page_ms: { p50: percentile(queryTimes, 50), p99: percentile(queryTimes, 99) },
      plans_use_an_index_without_a_full_sort: Object.values(plans).every(
        (p) => p.indexes.length > 0 && !p.seq_scan_on_generations && !p.full_sort,
      ),
      plans,
    },
    first_open: {
      http: await overHttp(),
      chromium: await inChromium(user),
    },
  };
  report("miniapp", result);
} finally {
  await h.stop();
}
process.exit(0);
