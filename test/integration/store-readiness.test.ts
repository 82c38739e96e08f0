import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createReadiness } from "../../src/runtime/readiness";
import { createStopPhases } from "../../src/runtime/stop-phases";
import { watchMediaStore } from "../../src/runtime/store-readiness";
import { createBucketStore } from "../../src/storage/bucket-store";
import { createMediaStore } from "../../src/storage/media-store";
import { captureLogs } from "../support/log-capture";
import { freshBucket } from "../support/object-store";

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
