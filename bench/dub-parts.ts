import { spawn } from "node:child_process";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { cutPoints, planParts } from "../src/domain/generations/dub-parts";
import type { DubPart } from "../src/domain/generations/parts";
import { partsJoiner } from "../src/domain/generations/sync/join-parts";
import { cutSound, joinSound } from "../src/platform/ffmpeg/cut-and-join";
import { runFfmpeg } from "../src/platform/ffmpeg/run";
import { findSilences } from "../src/platform/ffmpeg/silences";
import { releasingChunks } from "../src/platform/lib/release-chunks";
import { measureMediaFile } from "../src/platform/links/measure-file";
import { createMediaStore } from "../src/platform/storage/media-store";
import { partPath } from "../src/platform/storage/stored-file";
import { generationRow } from "../test/support/generation-row";
import { probe, speechLike } from "../test/support/media-files";
import { report } from "./support/report";

/**
 * Splitting and joining a 60-minute dub (BENCH_MINUTES) as the worker does it,
 * with the worker's own code: the source kept in a media store, measured, its
 * pauses found, cut into parts (dub-source.ts's steps), then the "dubbed" parts
 * (the parts themselves, served over HTTP as the service would) copied back
 * and joined into one file (join-parts.ts). The source is CD-quality WAV
 * (635 MB for an hour), so a step that held a file in memory would show. This
 * process's RSS is sampled every 50 ms; ffmpeg's own processes are not counted.
 * It runs with the node flags `npm start` gives the worker (--expose-gc among them).
 * Target: RSS growth ≤ 64 MB.
 */
const minutes = Number(process.env.BENCH_MINUTES ?? 60);

/** A file server over a folder: prints its address, then serves `/<path>`. */
const serviceScript = `
const { createServer } = require("node:http");
const { createReadStream } = require("node:fs");
const { join } = require("node:path");
const root = process.argv[1];
const server = createServer((req, res) => {
  const path = join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
  createReadStream(path).on("error", () => res.writeHead(404).end())
    .once("open", () => res.writeHead(200, { "content-type": "audio/mpeg" })).pipe(res);
});
server.listen(0, "127.0.0.1", () => console.log("http://127.0.0.1:" + server.address().port));
`;
const MB = 1024 * 1024;

const dir = await mkdtemp(join(tmpdir(), "msb-bench-dub-"));
try {
  const source = join(dir, "source.wav");
  const made = Date.now();
  await speechLike(source, minutes * 60, { burst: 7, gap: 1.5 }, "wav");
  const sourceBytes = (await stat(source)).size;
  const madeMs = Date.now() - made;

  const store = createMediaStore(join(dir, "media"));
  const g = generationRow({ operation: "dub" });
  // the "service", in a process of its own: serves the parts back as their dubbed versions
  const service = spawn(process.execPath, ["-e", serviceScript, store.root], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const base = await new Promise<string>((resolve) =>
    service.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())),
  );

  // a running worker has fetch (the media client's) and child processes (ffmpeg) loaded already
  await (await fetch(`${base}/missing`)).arrayBuffer();
  await runFfmpeg({ program: "ffmpeg", args: ["-version"], stdout: true });
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 50);

  const t0 = Date.now();
  // as a download into the store: streamed, never whole
  const kept = await store.keepInput(g.id, async (destination) => {
    await pipeline(createReadStream(source), releasingChunks(), createWriteStream(destination));
    return { contentType: "audio/wav", url: "file:///source.wav" };
  });
  const measured = await measureMediaFile(store.resolve(kept.path));
  if (!measured) throw new Error("the source could not be measured");
  const durationMs = Math.round(measured.seconds * 1000);
  const tMeasured = Date.now();
  const rssAt: Record<string, number> = { measured: rssPeak };
  const silences = await findSilences("ffmpeg", store.resolve(kept.path));
  const cuts = cutPoints(durationMs, silences);
  const tSilences = Date.now();
  rssAt.pauses = rssPeak;
  const plan = await store.keepParts(g.id, async (tmp) => {
    await cutSound("ffmpeg", store.resolve(kept.path), cuts, tmp);
    return planParts(durationMs, cuts);
  });
  const tCut = Date.now();
  rssAt.cut = rssPeak;

  const parts: DubPart[] = plan.map((p) => ({
    generationId: g.id,
    index: p.index,
    startMs: p.startMs,
    endMs: p.endMs,
    attempt: 1,
    state: "completed",
    taskId: `task-${p.index}`,
    serviceCredits: null,
    measuredSeconds: null,
    outputUrl: `${base}/${partPath(g.id, p.index)}`,
    error: null,
    submittedAt: null,
    updatedAt: new Date(),
  }));
  const join_ = partsJoiner({
    store,
    hasPicture: async (path) => (await measureMediaFile(path))?.hasVideo === true,
    joinSound: (files, output, picture) => joinSound("ffmpeg", files, output, picture),
    outputUrl: (path) => path,
  });
  const joined = await join_(g, parts);
  const tJoined = Date.now();
  clearInterval(sampler);
  service.kill();

  const out = await probe(store.resolve(joined.url));
  report("dub-parts", {
    inputMinutes: minutes,
    sourceMB: Math.round(sourceBytes / MB),
    parts: plan.length,
    longestPartSeconds: Math.max(...plan.map((p) => (p.endMs - p.startMs) / 1000)),
    cutsInPauses: cuts.filter((c) => silences.some((s) => s.startMs <= c && c <= s.endMs)).length,
    seconds: {
      makeSource: madeMs / 1000,
      keepAndMeasure: (tMeasured - t0) / 1000,
      findPauses: (tSilences - tMeasured) / 1000,
      cut: (tCut - tSilences) / 1000,
      copyBackAndJoin: (tJoined - tCut) / 1000,
    },
    joinedSeconds: out.seconds,
    sourceSeconds: measured.seconds,
    rssBeforeMB: Math.round(rssBefore / MB),
    rssPeakMB: Math.round(rssPeak / MB),
    rssGrowthMB: Math.round((rssPeak - rssBefore) / MB),
    rssPeakAfterMB: Object.fromEntries(Object.entries(rssAt).map(([k, v]) => [k, Math.round(v / MB)])),
    targetGrowthMB: 64,
  });
} finally {
  await rm(dir, { recursive: true, force: true });
}
