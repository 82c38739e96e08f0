import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { eventually, generationIn, type Harness, startHarness } from "../../support/harness";
import { probe, videoWithSpeech } from "../../support/media-files";
import { byData, says } from "../../support/messages";
import { freshBucket, objectStoreUrl, testS3Client, unfinishedUploads } from "../../support/object-store";

/**
 * A dub in parts with the media in a bucket (MEDIA_STORE=s3): the source kept
 * in the bucket, measured and cut by ffmpeg on scratch copies, each part sent
 * to the service as a presigned link to the bucket, the dubbed parts joined
 * with the source's picture into one video, and nothing left on the disk.
 */
let h: Harness;
let dir: string;
let bucket: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "msb-dub-bucket-"));
  await videoWithSpeech(join(dir, "film.mp4"), 420);
  const store = await freshBucket();
  bucket = store.settings.bucket;
  h = await startHarness({ env: { WELCOME_CREDITS: "0", ...store.env } });
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await rm(dir, { recursive: true, force: true });
});

test("a 7-minute video in a bucket is dubbed in 2 parts from presigned links and arrives as one video with its picture", async () => {
  const user = h.tg.user({ language: "en", started: true });
  await h.runtime.ledger.grant({ userId: user.id, amount: 500, key: `dub-bucket-${user.id}` });
  const source = await probe(join(dir, "film.mp4"));
  await user.send("/dub");
  await user.waitFor(says("Send the audio or video to dub"));
  await user.sendVideo({ path: join(dir, "film.mp4"), duration: 420, width: 160, height: 120 });
  const panel = await user.waitFor(says("dubbed in 2 parts"));
  await user.press(byData("cv:ok"), { message: panel });
  const g = await eventually(async () => (await h.runtime.generations.recent(user.id, 1))[0]);

  const result = await user.waitFor((m) => m.video !== undefined, { timeoutMs: 120_000 });
  const path = join(dir, "film-dubbed.mp4");
  await writeFile(path, h.tg.fileBytes(result.video!.file_id));
  const joined = await probe(path);
  expect(joined.video).toBe(true);
  expect(Math.abs(joined.seconds - source.seconds)).toBeLessThan(1);
  const done = await generationIn(h, user.id, "delivered");
  expect(done.charged).toBe(g.price);
  expect(await h.runtime.ledger.audit({ userId: user.id })).toEqual([]);

  // each part reached the service as a presigned link to the bucket
  const partLinks = h.sim.requests
    .filter((r) => r.method === "POST" && r.path === "/api/v1/audio/dubbing" && r.body.includes(g.id))
    .map((r) => new URL((JSON.parse(r.body) as { source_url: string }).source_url));
  expect(partLinks).toHaveLength(2);
  for (const link of partLinks) {
    expect(link.origin).toBe(new URL(objectStoreUrl).origin);
    expect(link.pathname).toMatch(new RegExp(`^/${bucket}/inputs/${g.id}/parts/[01]\\.mp3$`));
    expect(link.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
  }
  // the source, its parts, their dubbed copies and the result are in the bucket; no upload is left
  const listed = await testS3Client().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: "" }));
  const keys = (listed.Contents ?? []).map((o) => o.Key ?? "");
  expect(keys).toEqual(
    expect.arrayContaining([
      `inputs/${g.id}/source.mp4`,
      `inputs/${g.id}/parts/plan.json`,
      `${g.id}/parts/0.mp3`,
      `${g.id}/0.mp4`,
    ]),
  );
  expect(await unfinishedUploads(bucket)).toEqual([]);
  // ffmpeg worked on scratch copies, each removed; the process keeps no media on its disk. On a
  // loaded machine a second run of the join (seen once: its copies of the parts and the source
  // still there as the result arrived) may outlive the delivery: what is left is read once it ends
  const dataDir = h.env.DATA_DIR ?? "";
  expect(dataDir).not.toBe("");
  const mediaLeft = async () =>
    (await readdir(dataDir, { recursive: true })).filter((f) => /\.(mp3|mp4|part)$/.test(f));
  await eventually(async () => ((await mediaLeft()).length === 0 ? true : undefined), 30_000).catch(
    () => undefined,
  );
  expect(await readdir(dataDir)).toContain("scratch");
  expect(await mediaLeft()).toEqual([]);
}, 180_000);
