import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DeleteBucketCommand } from "@aws-sdk/client-s3";
import { Api } from "grammy";
import { startTelegramStandIn } from "../sandbox/playground/telegram";
import { uploadOf } from "../src/domain/generations/deliver/send-outputs";
import type { BucketSettings } from "../src/platform/config/config";
import { createBucketStore } from "../src/platform/storage/bucket-store";
import type { StoredFile } from "../src/platform/storage/stored-file";
import { freshBucket, testS3Client } from "../test/support/object-store";
import { pseudoRandom, sha256Of } from "../test/support/pseudo-random";
import { report } from "./support/report";

/**
 * A 500 MB output (BENCH_OUTPUT_MB) through the worker's code with a bucket
 * for its media store: streamed from the service into the bucket by the
 * bucket store's `copy` (a multipart upload, 5 MiB parts through three reused buffers), then
 * from the bucket to Telegram by the delivery's upload (`uploadOf`, a
 * multipart sendDocument through grammY). The service (an HTTP server making
 * the bytes as it sends them), the object store (s3rver,
 * scripts/object-store.ts) and Telegram (the project's stand-in as a local Bot
 * API server, which takes uploads of up to 2,000 MB and spools them to disk)
 * each run in a process of their own: only the worker's side runs here, and
 * this process's RSS is sampled every 50 ms.
 *
 * Both legs run one after the other, as a delivery runs them: the second
 * reuses memory the first freed, so its own growth shows only when it is
 * measured alone: BENCH_LEGS=send has the output put into the bucket by
 * another process first and measures the upload to Telegram only.
 * Run with the node flags `npm start` gives the worker (`npm run bench:object-store`).
 * Target: RSS growth ≤ 32 MB.
 */
const MB = 1024 * 1024;
const outputBytes = Number(process.env.BENCH_OUTPUT_MB ?? 500) * MB;
const legs = process.env.BENCH_LEGS === "send" ? "send" : "both";
const targetGrowthMb = 32;

/** The service: `/<size>/<name>` answers `size` bytes of pseudoRandom(seed) (test/support/pseudo-random.ts), made as they are sent. */
const serviceScript = `
const { createServer } = require("node:http");
const { createCipheriv, createHash } = require("node:crypto");
const seed = process.argv[1];
const server = createServer(async (req, res) => {
  const size = Number(req.url.split("/")[1]);
  res.writeHead(200, { "content-type": "video/mp4", "content-length": size });
  const cipher = createCipheriv("aes-256-ctr", createHash("sha256").update(seed).digest(), Buffer.alloc(16));
  const zeros = Buffer.alloc(64 * 1024);
  for (let left = size; left > 0 && !res.destroyed; left -= zeros.length) {
    if (!res.write(cipher.update(left >= zeros.length ? zeros : zeros.subarray(0, left))))
      await new Promise((r) => res.once("drain", r));
  }
  res.end();
});
server.listen(0, "127.0.0.1", () => console.log("http://127.0.0.1:" + server.address().port));
`;

const thisFile = fileURLToPath(import.meta.url);
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const mb = (bytes: number) => round(bytes / MB);

/** This file in a helper process (`role`, then `args`): resolves with the first line it prints. */
function helper(role: string, args: string[], helpers: ReturnType<typeof spawn>[]): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", thisFile, role, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  helpers.push(child);
  return firstLine(child);
}

function firstLine(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const end = out.indexOf("\n");
      if (end >= 0) resolve(out.slice(0, end).trim());
    });
    child.once("exit", (code) => reject(new Error(`a helper process exited (${code}) before it answered`)));
  });
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Samples this process's RSS every 50 ms; `leg` names what runs now. */
function rssSampler() {
  globalThis.gc?.();
  const before = process.memoryUsage();
  let peak = before.rss;
  let atPeak = before;
  const perLeg = new Map<string, { start: number; peak: number; t0: number; t1?: number }>();
  let current: string | undefined;
  const timer = setInterval(() => {
    const rss = process.memoryUsage.rss();
    const leg = current ? perLeg.get(current) : undefined;
    if (leg) leg.peak = Math.max(leg.peak, rss);
    if (rss > peak) {
      peak = rss;
      atPeak = process.memoryUsage();
    }
  }, 50);
  const breakdown = (m: NodeJS.MemoryUsage) => ({
    heap_used_mb: mb(m.heapUsed),
    heap_total_mb: mb(m.heapTotal),
    external_mb: mb(m.external),
    array_buffers_mb: mb(m.arrayBuffers),
  });
  return {
    leg(name: string) {
      const now = performance.now();
      if (current) perLeg.get(current)!.t1 = now;
      const rss = process.memoryUsage.rss();
      perLeg.set(name, { start: rss, peak: rss, t0: now });
      current = name;
    },
    stop() {
      clearInterval(timer);
      if (current) perLeg.get(current)!.t1 = performance.now();
      const after = process.memoryUsage();
      const growth = mb(peak - before.rss);
      return {
        legs: Object.fromEntries(
          [...perLeg].map(([name, l]) => {
            const seconds = ((l.t1 ?? l.t0) - l.t0) / 1000;
            return [
              name,
              {
                seconds: round(seconds, 2),
                mb_per_s: round(outputBytes / MB / seconds),
                rss_start_mb: mb(l.start),
                rss_peak_mb: mb(l.peak),
                rss_growth_mb: mb(l.peak - l.start),
              },
            ];
          }),
        ),
        rss_before_mb: mb(before.rss),
        rss_peak_mb: mb(peak),
        rss_growth_mb: growth,
        rss_after_mb: mb(after.rss),
        before: breakdown(before),
        at_peak: breakdown(atPeak),
        target: `rss_growth_mb ≤ ${targetGrowthMb}`,
        target_met: growth <= targetGrowthMb,
      };
    },
  };
}

async function bench() {
  const seed = `object-store-bench-${randomUUID()}`;
  const dir = await mkdtemp(join(tmpdir(), "msb-bench-object-store-"));
  const helpers: ReturnType<typeof spawn>[] = [];
  const { settings } = await freshBucket();
  const store = createBucketStore(settings, join(dir, "scratch"));
  const gid = randomUUID();
  try {
    const service = spawn(process.execPath, ["-e", serviceScript, seed], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    helpers.push(service);
    const [base, standIn] = await Promise.all([
      firstLine(service),
      helper("telegram-stand-in", [join(dir, "telegram")], helpers),
    ]);
    const { token, apiRoot, chatId } = JSON.parse(standIn) as {
      token: string;
      apiRoot: string;
      chatId: number;
    };
    const api = new Api(token, { apiRoot, timeoutSeconds: 1800 });
    const outputUrl = `${base}/${outputBytes}/output.mp4`;

    // a running worker has its clients made and its modules loaded: a small output each way first
    const warmGid = randomUUID();
    const warm = await store.copy(warmGid, 0, `${base}/${64 * 1024}/warm.mp4`);
    await api.sendDocument(chatId, uploadOf(store, warm));
    await store.removeFolder(warmGid);

    // BENCH_LEGS=send: the output is put into the bucket by another process, unmeasured
    const putElsewhere =
      legs === "send"
        ? (JSON.parse(
            await helper(
              "copy-into-bucket",
              [JSON.stringify(settings), join(dir, "scratch-2"), gid, outputUrl],
              helpers,
            ),
          ) as StoredFile)
        : undefined;

    const sampler = rssSampler();
    let stored = putElsewhere;
    if (!stored) {
      sampler.leg("service_to_bucket");
      stored = await store.copy(gid, 0, outputUrl);
    }
    sampler.leg("bucket_to_telegram");
    const sent = await api.sendDocument(chatId, uploadOf(store, stored));
    const measured = sampler.stop();

    // what arrived, checked once the measuring is over
    const received = sent.document?.file_size ?? 0;
    const onDisk = (await api.getFile(sent.document!.file_id)).file_path!;
    const intact =
      stored.size === outputBytes &&
      received === outputBytes &&
      (await sha256OfFile(onDisk)) === sha256Of(pseudoRandom(seed, outputBytes));
    report("object-store", {
      bench: "object-store",
      started: new Date().toISOString(),
      node: process.version,
      node_flags: process.execArgv.filter((f) => f.startsWith("--") && f !== "--import"),
      measured_legs: legs === "send" ? ["bucket_to_telegram"] : ["service_to_bucket", "bucket_to_telegram"],
      output_mb: mb(outputBytes),
      stored_mb: mb(stored.size),
      received_mb: mb(received),
      intact,
      ...measured,
    });
  } finally {
    for (const child of helpers) child.kill();
    await store.removeFolder(gid).catch(() => undefined);
    await testS3Client()
      .send(new DeleteBucketCommand({ Bucket: settings.bucket }))
      .catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

const [role, ...args] = process.argv.slice(2);
if (role === "telegram-stand-in") {
  // Telegram: prints its token, API root and a started user's chat, then serves
  const tg = await startTelegramStandIn({ rules: { flood: false }, localServer: { filesDir: args[0]! } });
  const user = tg.user({ started: true });
  process.stdout.write(`${JSON.stringify({ token: tg.token, apiRoot: tg.apiRoot, chatId: user.chatId })}\n`);
  process.on("SIGTERM", () => void tg.close().finally(() => process.exit(0)));
} else if (role === "copy-into-bucket") {
  // the output copied into the bucket by another worker: prints the stored file
  const [settings, scratch, gid, url] = args as [string, string, string, string];
  const stored = await createBucketStore(JSON.parse(settings) as BucketSettings, scratch).copy(gid, 0, url);
  process.stdout.write(`${JSON.stringify(stored)}\n`);
} else {
  await bench();
}
