import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createBucketStore } from "../../../src/platform/storage/bucket-store";
import { createMediaStore } from "../../../src/platform/storage/media-store";
import { DownloadError, type MediaStore, partPath } from "../../../src/platform/storage/stored-file";
import { freshBucket, testS3Client, unfinishedUploads } from "../../support/object-store";
import { pseudoRandom, sha256Of } from "../../support/pseudo-random";

const MB = 1024 * 1024;
/** more than two of the bucket store's 5 MiB parts: a multipart upload */
const largeBytes = 12 * MB;

const bytesOf = (seed: string, size: number) => Buffer.concat([...pseudoRandom(seed, size)]);
// (a large Buffer is compared by its hash: toEqual walks it byte by byte, for minutes)

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** the unfinished uploads of `bucket` under `folder`: a test looks at its own only */
const uploadsUnder = async (bucket: string, folder: string) =>
  (await unfinishedUploads(bucket)).filter((key) => key.startsWith(`${folder}/`));

async function until(ready: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * The service's file host: `/<seed>/<size>.<ext>` answers `size` pseudo-random
 * bytes of `seed`; with `?gate=<name>` the second half waits until the test
 * opens that gate (a store that wrote nothing before the whole body arrived
 * would never let it open). Counts the requests per path.
 */
async function startOutputs() {
  const gates = new Map<string, () => Promise<void>>();
  const requests = new Map<string, number>();
  const types: Record<string, string> = { png: "image/png", mp4: "video/mp4", mp3: "audio/mpeg" };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    const m = /^\/([\w-]+)\/(\d+)\.(\w+)$/.exec(url.pathname);
    if (!m) return void res.writeHead(404).end();
    const [, seed, sizeText, ext] = m;
    const size = Number(sizeText);
    res.writeHead(200, { "content-type": types[ext!] ?? "application/octet-stream", "content-length": size });
    const body = bytesOf(seed!, size);
    const gate = gates.get(url.searchParams.get("gate") ?? "");
    if (!gate) return void res.end(body);
    const half = Math.floor(size / 2);
    res.write(body.subarray(0, half));
    gate().then(
      () => res.end(body.subarray(half)),
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (seed: string, size: number, ext: string) => `${base}/${seed}/${size}.${ext}`,
    missing: `${base}/nothing-here`,
    gated(seed: string, size: number, ext: string, gate: () => Promise<void>): string {
      const name = randomUUID();
      gates.set(name, gate);
      return `${base}/${seed}/${size}.${ext}?gate=${name}`;
    },
    requestsFor: (seed: string, size: number, ext: string) => requests.get(`/${seed}/${size}.${ext}`) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Kind {
  kind: "local" | "bucket";
  open(): Promise<{ store: MediaStore; scratch: string; bucket?: string; close(): Promise<void> }>;
  /** whether part of `path` is already written into the store (an upload begun, a temporary file filling) */
  writing(store: MediaStore, path: string, bucket: string | undefined): Promise<boolean>;
  /** whether `withLocalFiles` hands out copies, removed when it settles (else the store's own files) */
  copiesLocalFiles: boolean;
  /** whether `link` gives a link straight to the store */
  links: boolean;
}

const kinds: Kind[] = [
  {
    kind: "local",
    async open() {
      const root = await mkdtemp(join(tmpdir(), "msb-store-contract-"));
      return {
        store: createMediaStore(root),
        scratch: root,
        close: () => rm(root, { recursive: true, force: true }),
      };
    },
    async writing(store, path) {
      const root = (store as ReturnType<typeof createMediaStore>).root;
      const [folder, name] = path.split("/") as [string, string];
      const names = await readdir(join(root, folder)).catch(() => [] as string[]);
      const partial = names.find((n) => n.startsWith(`${name}.`) && n.endsWith(".part"));
      return partial !== undefined && (await stat(join(root, folder, partial))).size >= 4 * MB;
    },
    copiesLocalFiles: false,
    links: false,
  },
  {
    kind: "bucket",
    async open() {
      const { settings } = await freshBucket();
      const scratch = await mkdtemp(join(tmpdir(), "msb-store-contract-scratch-"));
      return {
        store: createBucketStore(settings, scratch),
        scratch,
        bucket: settings.bucket,
        close: () => rm(scratch, { recursive: true, force: true }),
      };
    },
    writing: async (_store, path, bucket) => (await unfinishedUploads(bucket!)).includes(path),
    copiesLocalFiles: true,
    links: true,
  },
];

let outputs: Awaited<ReturnType<typeof startOutputs>>;
beforeAll(async () => {
  outputs = await startOutputs();
});
afterAll(async () => outputs?.close());

/** Both kinds of media store, held to one contract: the local directory and the bucket (on s3rver). */
describe.each(kinds)("the $kind media store", (kind) => {
  let store: MediaStore;
  let scratch: string;
  let bucket: string | undefined;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ store, scratch, bucket, close } = await kind.open());
  }, 30_000);
  afterAll(async () => close?.());

  test("copy streams an output into the store as it downloads; a second copy of the slot reuses it", async () => {
    const gid = randomUUID();
    const seed = `copy-${kind.kind}`;
    const path = `${gid}/0.mp4`;
    const url = outputs.gated(seed, largeBytes, "mp4", () =>
      until(() => kind.writing(store, path, bucket), "nothing was written before the whole download"),
    );
    const stored = await store.copy(gid, 0, url);
    expect(stored).toEqual({ path, size: largeBytes, mimeType: "video/mp4", fileName: "0.mp4" });
    expect(sha256Of([await readAll(await store.open(path))])).toBe(sha256Of(pseudoRandom(seed, largeBytes)));
    expect(await store.existing(path)).toEqual(stored);

    // the same slot again, even from another URL: no download, the same file
    const again = await store.copy(gid, 0, outputs.url(seed, 1000, "png"));
    expect(again).toEqual(stored);
    expect(outputs.requestsFor(seed, 1000, "png")).toBe(0);
    // a completed copy leaves nothing to abort
    expect(await store.abortStaleUploads(new Date(Date.now() + 3_600_000))).toBe(0);
  }, 30_000);

  test("a copy the service refuses stores nothing", async () => {
    const gid = randomUUID();
    const failed = await store.copy(gid, 0, outputs.missing).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(DownloadError);
    expect((failed as DownloadError).retryable).toBe(false);
    expect(await store.outputsOf(gid)).toEqual([]);
    if (bucket) expect(await uploadsUnder(bucket, gid)).toEqual([]);
  });

  test("a download the service breaks off midway fails the copy, stores nothing and leaves no upload", async () => {
    const gid = randomUUID();
    // 12 MB, cut after 6: past the first 5 MiB part, so a bucket's multipart upload has begun
    const broken = outputs.gated(`broken-${kind.kind}`, 12 * 1024 * 1024, "mp4", async () => {
      throw new Error("the service went away");
    });
    const failed = await store.copy(gid, 0, broken).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(Error);
    expect(await store.outputsOf(gid)).toEqual([]);
    if (bucket) expect(await uploadsUnder(bucket, gid)).toEqual([]);
  });

  test("outputsOf lists a generation's outputs in slot order, whatever their kind, and none of another's", async () => {
    const gid = randomUUID();
    const other = randomUUID();
    await store.copy(gid, 10, outputs.url("slot-10", 1000, "png"));
    await store.copy(gid, 2, outputs.url("slot-2", 2000, "mp3"));
    await store.keepOutput(gid, 0, "mp4", (tmp) => writeFile(tmp, bytesOf("slot-0", 3000)));
    await store.copy(other, 1, outputs.url("other", 500, "png"));
    expect(await store.outputsOf(gid)).toEqual([
      { path: `${gid}/0.mp4`, size: 3000, mimeType: "video/mp4", fileName: "0.mp4" },
      { path: `${gid}/2.mp3`, size: 2000, mimeType: "audio/mpeg", fileName: "2.mp3" },
      { path: `${gid}/10.png`, size: 1000, mimeType: "image/png", fileName: "10.png" },
    ]);
    expect(await store.outputsOf(randomUUID())).toEqual([]);
  });

  test("keepOutput writes a slot ourselves; copy then finds it and downloads nothing", async () => {
    const gid = randomUUID();
    const joined = bytesOf("joined", 4000);
    const kept = await store.keepOutput(gid, 0, "mp3", (tmp) => writeFile(tmp, joined));
    expect(kept).toEqual({ path: `${gid}/0.mp3`, size: 4000, mimeType: "audio/mpeg", fileName: "0.mp3" });
    const never = `never-${kind.kind}`;
    expect(await store.copy(gid, 0, outputs.url(never, 10, "mp3"))).toEqual(kept);
    expect(outputs.requestsFor(never, 10, "mp3")).toBe(0);
    expect(await readAll(await store.open(kept.path))).toEqual(joined);
    // a fill that fails keeps nothing
    const failing = store.keepOutput(gid, 1, "mp3", async (tmp) => {
      await writeFile(tmp, joined);
      throw new Error("ffmpeg died");
    });
    await expect(failing).rejects.toThrow("ffmpeg died");
    expect((await store.outputsOf(gid)).map((f) => f.path)).toEqual([kept.path]);
  });

  test("keepInput keeps a generation's input under its name; findInput finds only a kept one", async () => {
    const gid = randomUUID();
    expect(await store.findInput(gid)).toBeNull();
    const source = bytesOf("source", 5000);
    const kept = await store.keepInput(gid, async (tmp) => {
      await writeFile(tmp, source);
      return { contentType: "audio/mpeg", url: "https://example.com/talk" };
    });
    expect(kept).toEqual({
      path: `inputs/${gid}/source.mp3`,
      size: 5000,
      mimeType: "audio/mpeg",
      fileName: "source.mp3",
    });
    expect(await store.findInput(gid)).toEqual(kept);
    expect(await readAll(await store.open(kept.path))).toEqual(source);

    // a named input, its extension from the URL
    const picture = await store.keepInput(
      gid,
      async (tmp) => {
        await writeFile(tmp, bytesOf("picture", 700));
        return { url: "https://example.com/photo.jpg" };
      },
      "input-0",
    );
    expect(picture.path).toBe(`inputs/${gid}/input-0.jpg`);
    expect(await store.findInput(gid, "input-0")).toEqual(picture);
    expect(await store.findInput(gid, "input-1")).toBeNull();

    // a fill that fails keeps nothing, leaving no upload behind
    const failing = store.keepInput(
      gid,
      async (tmp) => {
        await writeFile(tmp, source);
        throw new Error("Telegram cut the download");
      },
      "input-1",
    );
    await expect(failing).rejects.toThrow("Telegram cut the download");
    expect(await store.findInput(gid, "input-1")).toBeNull();
    if (bucket) expect(await uploadsUnder(bucket, `inputs/${gid}`)).toEqual([]);
  });

  test("findParts finds the plan only once every part it names is kept whole", async () => {
    const gid = randomUUID();
    const sizes = [largeBytes, 3000, 2000];
    const plan = sizes.map((size, index) => ({
      index,
      startMs: index * 1000,
      endMs: (index + 1) * 1000,
      size,
    }));
    let filled = false;
    let lookedWhileKeeping = 0;
    let sawPlan = false;
    // looks for the plan all along: whenever it is found, every part must be there, whole
    const watching = (async () => {
      while (!sawPlan) {
        const found = await store.findParts(gid);
        if (found) {
          sawPlan = true;
          for (const [index, size] of sizes.entries())
            expect(await store.existing(partPath(gid, index))).toMatchObject({ size });
          expect(found).toEqual(plan);
        } else {
          if (filled) lookedWhileKeeping++;
          await new Promise((r) => setTimeout(r, 5));
        }
      }
    })();
    const returned = await store.keepParts(gid, async (dir) => {
      expect(await store.findParts(gid)).toBeNull();
      for (const [index, size] of sizes.entries())
        await writeFile(join(dir, `${index}.mp3`), bytesOf(`part-${index}`, size));
      filled = true;
      return plan;
    });
    await watching;
    expect(returned).toEqual(plan);
    expect(await store.findParts(gid)).toEqual(plan);
    for (const [index, size] of sizes.entries())
      expect(sha256Of([await readAll(await store.open(partPath(gid, index)))])).toBe(
        sha256Of(pseudoRandom(`part-${index}`, size)),
      );
    // the bucket uploads the parts one by one after the fill: the plan was missing a while
    if (kind.kind === "bucket") expect(lookedWhileKeeping).toBeGreaterThan(0);
    expect(await store.findParts(randomUUID())).toBeNull();
  }, 30_000);

  test("folders lists the generation folders and the kept inputs'; removeFolder removes one whole", async () => {
    const gid = randomUUID();
    const kept = randomUUID();
    await store.copy(gid, 0, outputs.url("folder-a", 800, "png"));
    await store.copy(gid, 1, outputs.url("folder-b", 900, "png"));
    await store.copy(kept, 0, outputs.url("folder-c", 700, "png"));
    await store.keepInput(gid, async (tmp) => {
      await writeFile(tmp, bytesOf("folder-input", 600));
      return { contentType: "audio/mpeg", url: "https://example.com/a" };
    });
    // (s3rver lists a common prefix only for objects one level below it, so "inputs" is not asked for here)
    expect(await store.folders()).toEqual(expect.arrayContaining([gid, kept]));
    expect(await store.folders("inputs")).toContain(gid);

    await store.removeFolder(gid);
    await store.removeFolder(`inputs/${gid}`);
    expect(await store.outputsOf(gid)).toEqual([]);
    expect(await store.existing(`${gid}/0.png`)).toBeNull();
    expect(await store.findInput(gid)).toBeNull();
    expect(await store.folders()).not.toContain(gid);
    expect(await store.folders("inputs")).not.toContain(gid);
    // the neighbour is untouched
    expect((await store.outputsOf(kept)).map((f) => f.size)).toEqual([700]);
    // removing what is not there is no error
    await store.removeFolder(randomUUID());
  });

  test("open streams a stored file", async () => {
    const gid = randomUUID();
    const stored = await store.copy(gid, 0, outputs.url("open", largeBytes, "mp4"));
    const stream = await store.open(stored.path);
    let chunks = 0;
    let size = 0;
    for await (const chunk of stream) {
      chunks++;
      size += (chunk as Uint8Array).length;
    }
    expect(size).toBe(largeBytes);
    // many chunks, not one buffer of the whole file
    expect(chunks).toBeGreaterThan(10);
  });

  test("withLocalFiles gives files on this host's disk holding the stored bytes", async () => {
    const gid = randomUUID();
    const a = await store.copy(gid, 0, outputs.url("local-a", 3000, "mp3"));
    const b = await store.copy(gid, 1, outputs.url("local-b", 4000, "mp3"));
    const seen = await store.withLocalFiles([a, b], async (paths) => {
      expect(paths).toHaveLength(2);
      expect(await readFile(paths[0]!)).toEqual(bytesOf("local-a", 3000));
      expect(await readFile(paths[1]!)).toEqual(bytesOf("local-b", 4000));
      return paths;
    });
    const left = await Promise.all(seen.map(exists));
    // the bucket's copies go when `use` settles; the local store hands out its own files
    expect(left).toEqual([!kind.copiesLocalFiles, !kind.copiesLocalFiles]);
    if (kind.copiesLocalFiles) {
      expect(seen.every((p) => p.startsWith(scratch))).toBe(true);
      // removed too when `use` fails
      let inUse: string[] = [];
      const failing = store.withLocalFiles([a], async (paths) => {
        inUse = paths;
        throw new Error("ffmpeg failed");
      });
      await expect(failing).rejects.toThrow("ffmpeg failed");
      expect(await exists(inUse[0]!)).toBe(false);
      expect(await readdir(scratch)).toEqual([]);
    }
  });

  test(`link ${kind.links ? "gives a link straight to the stored file" : "is null: only our file proxy serves files"}`, async () => {
    const gid = randomUUID();
    const stored = await store.copy(gid, 0, outputs.url("link", 2000, "png"));
    const link = await store.link(stored.path, 60);
    if (!kind.links) {
      expect(link).toBeNull();
      return;
    }
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const res = await fetch(link!);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytesOf("link", 2000));
  });
});

/** What only a bucket has: multipart uploads a crash can leave, and presigned links that expire. */
describe("the bucket store's uploads and links", () => {
  let store: MediaStore;
  let bucket: string;
  let scratch: string;
  const s3 = testS3Client();

  // a bucket of each test's own: what one leaves unfinished is not another's to count
  beforeEach(async () => {
    const { settings } = await freshBucket();
    bucket = settings.bucket;
    scratch = await mkdtemp(join(tmpdir(), "msb-bucket-scratch-"));
    store = createBucketStore(settings, scratch);
  }, 30_000);
  afterEach(async () => rm(scratch, { recursive: true, force: true }));

  /** a multipart upload with one part sent, never completed: what a crash leaves */
  async function leftUpload(key: string): Promise<string> {
    const made = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    await s3.send(
      new UploadPartCommand({
        Bucket: bucket,
        Key: key,
        UploadId: made.UploadId,
        PartNumber: 1,
        Body: bytesOf("left", 5 * MB),
      }),
    );
    return made.UploadId!;
  }

  test("removeFolder aborts the unfinished uploads under the folder, and only those", async () => {
    const gid = randomUUID();
    const neighbour = randomUUID();
    await store.copy(gid, 0, outputs.url("remove", 1000, "png"));
    await leftUpload(`${gid}/1.mp4`);
    const kept = await leftUpload(`${neighbour}/0.mp4`);
    expect((await unfinishedUploads(bucket)).sort()).toEqual([`${gid}/1.mp4`, `${neighbour}/0.mp4`].sort());

    await store.removeFolder(gid);
    expect(await store.outputsOf(gid)).toEqual([]);
    expect(await unfinishedUploads(bucket)).toEqual([`${neighbour}/0.mp4`]);
    await s3.send(
      new AbortMultipartUploadCommand({ Bucket: bucket, Key: `${neighbour}/0.mp4`, UploadId: kept }),
    );
    expect(await unfinishedUploads(bucket)).toEqual([]);
  }, 30_000);

  test("copy aborts an upload of the same key a crash left, then uploads the output whole", async () => {
    const gid = randomUUID();
    await leftUpload(`${gid}/0.mp4`);
    const stored = await store.copy(gid, 0, outputs.url("after-crash", largeBytes, "mp4"));
    expect(stored.size).toBe(largeBytes);
    expect(await unfinishedUploads(bucket)).toEqual([]);
    expect(sha256Of([await readAll(await store.open(stored.path))])).toBe(
      sha256Of(pseudoRandom("after-crash", largeBytes)),
    );
  }, 30_000);

  test("abortStaleUploads aborts the uploads begun before the cutoff, not the later ones", async () => {
    const old = `${randomUUID()}/0.mp4`;
    const recent = `${randomUUID()}/0.mp4`;
    await leftUpload(old);
    await new Promise((r) => setTimeout(r, 1_100));
    const cutoff = new Date();
    await new Promise((r) => setTimeout(r, 1_100));
    await leftUpload(recent);

    expect(await store.abortStaleUploads(cutoff)).toBe(1);
    expect(await unfinishedUploads(bucket)).toEqual([recent]);
    expect(await store.abortStaleUploads(cutoff)).toBe(0);
    expect(await store.abortStaleUploads(new Date(Date.now() + 60_000))).toBe(1);
    expect(await unfinishedUploads(bucket)).toEqual([]);
  }, 30_000);

  test("a presigned link serves the bytes, and stops when it expires", async () => {
    const gid = randomUUID();
    const stored = await store.copy(gid, 0, outputs.url("expiring", 3000, "png"));
    const link = await store.link(stored.path, 1);
    expect(link).not.toBeNull();
    const res = await fetch(link!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("3000");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytesOf("expiring", 3000));
    // SigV4 counts whole seconds from the link's signing time
    await new Promise((r) => setTimeout(r, 2_100));
    const late = await fetch(link!);
    expect(late.status).toBe(403);
    await late.arrayBuffer();
    // a link to nothing does not serve
    const none = await fetch((await store.link(`${gid}/9.png`, 60))!);
    expect(none.status).toBe(404);
    await none.arrayBuffer();
  }, 30_000);
});
