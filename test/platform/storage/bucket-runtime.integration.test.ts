import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createBucketStore } from "../../../src/platform/storage/bucket-store";
import { createMediaStore } from "../../../src/platform/storage/media-store";
import { sweepScratch } from "../../../src/platform/storage/scratch";
import { signFileToken } from "../../../src/platform/storage/signed-tokens";
import { fileProxyRoutes } from "../../../src/runtime/http/file-proxy";
import { createReadiness } from "../../../src/runtime/readiness";
import { createStopPhases } from "../../../src/runtime/stop-phases";
import { watchMediaStore } from "../../../src/runtime/store-readiness";
import { captureLogs } from "../../support/log-capture";
import { freshBucket } from "../../support/object-store";

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "msb-store-ready-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

test("readiness says whether the bucket answers; a local store adds nothing to it", async () => {
  const { logger, lines } = captureLogs();
  const look = async (store: Parameters<typeof watchMediaStore>[0]) => {
    const readiness = createReadiness();
    const stops = createStopPhases(logger);
    await watchMediaStore(store, readiness, stops, logger);
    await stops.stopAll();
    return readiness.snapshot().filter((p) => p.name === "media store");
  };
  const { settings } = await freshBucket();
  expect(await look(createBucketStore(settings, scratch))).toEqual([
    { name: "media store", ok: true, detail: "bucket answers" },
  ]);
  // nothing listens on port 1: the bucket is out of reach
  const unreachable = createBucketStore({ ...settings, endpoint: "http://127.0.0.1:1" }, scratch);
  expect(await look(unreachable)).toEqual([{ name: "media store", ok: false, detail: "bucket unreachable" }]);
  expect(lines.some((l) => l.level === 40 && /bucket does not answer/.test(String(l.msg)))).toBe(true);
  expect(await look(createMediaStore(scratch))).toEqual([]);
});

test("a bucket's file link: HEAD answers its headers here, GET is sent to the bucket, saved under the file's name", async () => {
  const { logger } = captureLogs();
  const { settings } = await freshBucket();
  const store = createBucketStore(settings, scratch);
  const kept = await store.keepOutput("g", 0, "mp4", (tmp) => writeFile(tmp, Buffer.alloc(4096, 3)));
  const secret = "bucket-proxy-secret-0123456789abcdefghij";
  const app = fileProxyRoutes({ signingSecret: secret, now: Date.now, store, telegram: null, logger });
  const link = `/files/${signFileToken(secret, { k: "out", p: kept.path, e: Math.floor(Date.now() / 1000) + 60 })}`;
  const head = await app.request(link, { method: "HEAD" });
  expect(head.status).toBe(200);
  expect(head.headers.get("content-length")).toBe("4096");
  const got = await app.request(link);
  expect(got.status).toBe(302);
  const location = new URL(got.headers.get("location") ?? "");
  expect(location.origin).toBe(new URL(settings.endpoint ?? "").origin);
  expect(location.searchParams.get("response-content-disposition")).toBe('attachment; filename="0.mp4"');
  const file = await fetch(location);
  expect(file.status).toBe(200);
  expect(file.headers.get("content-disposition")).toBe('attachment; filename="0.mp4"');
  expect(Buffer.from(await file.arrayBuffer())).toEqual(Buffer.alloc(4096, 3));
});

test("scratch files a crash left are removed once a day old; younger ones (another worker's) stay", async () => {
  const dir = join(scratch, "sweep");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "old.part"), "x");
  await mkdir(join(dir, "old-dir.part"));
  await writeFile(join(dir, "young.part"), "x");
  const dayAndMore = (Date.now() - 25 * 3_600_000) / 1000;
  await utimes(join(dir, "old.part"), dayAndMore, dayAndMore);
  await utimes(join(dir, "old-dir.part"), dayAndMore, dayAndMore);
  await sweepScratch(dir);
  expect((await readdir(dir)).sort()).toEqual(["young.part"]);
});
