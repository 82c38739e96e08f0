import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { BucketSettings } from "../config";
import { releaseChunks, releasingChunks } from "../lib/release-chunks";
import { multipartPut } from "./multipart-put";
import {
  DownloadError,
  downloadOutput,
  extensionFor,
  fileOf,
  inputName,
  inputsArea,
  keyOf,
  type MediaStore,
  partsFolder,
  type StoredFile,
  slotOf,
} from "./stored-file";

/** SigV4 links live at most a week */
const longestLinkSeconds = 7 * 24 * 3600;

function clientOf(s: BucketSettings, endpoint: string | undefined): S3Client {
  return new S3Client({
    region: s.region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: s.forcePathStyle,
    // the checksums the SDK adds by default are not taken by every S3-compatible store (R2, MinIO, older servers)
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // a store that stops answering fails the call (and the job retries) rather than hanging it
    requestHandler: { connectionTimeout: 5_000, socketTimeout: 60_000 },
    ...(s.accessKeyId && s.secretAccessKey
      ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } }
      : {}),
  });
}

const notFound = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.$metadata.httpStatusCode === 404 || err.name === "NotFound" || err.name === "NoSuchKey");

/**
 * The media store on an S3-compatible bucket (AWS S3, R2, MinIO): the same
 * keys as the local store's paths. Outputs stream from the service into the
 * bucket by multipart upload, and out of it to Telegram; the service and
 * phones fetch files by presigned links. ffmpeg's work (dubbing in parts) runs
 * on copies in `scratch`, this process's own disk, removed after each use.
 */
export function createBucketStore(
  settings: BucketSettings,
  scratch: string,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): MediaStore {
  const client = clientOf(settings, settings.endpoint);
  const signer =
    settings.publicEndpoint && settings.publicEndpoint !== settings.endpoint
      ? clientOf(settings, settings.publicEndpoint)
      : client;
  const Bucket = settings.bucket;

  /** every key under `prefix`, page by page */
  async function* keysUnder(prefix: string, delimiter?: string) {
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket,
          Prefix: prefix,
          ...(delimiter ? { Delimiter: delimiter } : {}),
          ...(ContinuationToken ? { ContinuationToken } : {}),
        }),
      );
      yield page;
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async function filesIn(folder: string): Promise<StoredFile[]> {
    const files: StoredFile[] = [];
    for await (const page of keysUnder(`${folder}/`, "/"))
      for (const o of page.Contents ?? []) if (o.Key) files.push(fileOf(o.Key, o.Size ?? 0));
    return files;
  }

  /** Uploads a crash cut off: aborted, so none is left holding its parts. */
  async function abortUnfinished(prefix: string, startedBefore?: Date): Promise<number> {
    let aborted = 0;
    let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
    for (;;) {
      const listed = await client.send(
        new ListMultipartUploadsCommand({ Bucket, Prefix: prefix, ...markers }),
      );
      for (const u of listed.Uploads ?? []) {
        if (!u.Key || !u.UploadId) continue;
        if (startedBefore && u.Initiated && u.Initiated >= startedBefore) continue;
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId }));
        aborted++;
      }
      if (!listed.IsTruncated || !listed.NextKeyMarker) return aborted;
      markers = { KeyMarker: listed.NextKeyMarker, UploadIdMarker: listed.NextUploadIdMarker };
    }
  }

  /**
   * Streams `body` into `key`, a part at a time; an upload of the same key a
   * crash left unfinished is aborted first. A failure aborts this one.
   */
  async function put(
    key: string,
    body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    contentType: string,
  ): Promise<void> {
    // a store that lists no uploads (or a key not allowed to) still takes the write: retention and lifecycle rules remain
    await abortUnfinished(key).catch(() => undefined);
    await multipartPut(client, { Bucket, Key: key, ContentType: contentType }, body);
  }

  async function existing(path: string): Promise<StoredFile | null> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(path) }));
      return fileOf(path, head.ContentLength ?? 0);
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  /** Runs `write` on a temporary file of this process's scratch disk, removed afterwards. */
  async function inScratch<T>(write: (temporaryPath: string) => Promise<T>): Promise<T> {
    await mkdir(scratch, { recursive: true });
    const tmp = join(scratch, `${randomUUID()}.part`);
    try {
      return await write(tmp);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  const putFile = (key: string, localPath: string) =>
    put(key, createReadStream(localPath), fileOf(key, 0).mimeType);

  const store: MediaStore = {
    kind: "bucket",
    existing,
    async copy(folder, index, url) {
      const kept = (await filesIn(folder)).find((f) => slotOf(f.path) === index);
      if (kept) return kept;
      const download = await downloadOutput(url, options);
      const path = `${folder}/${index}.${download.extension}`;
      await put(
        keyOf(path),
        releaseChunks(Readable.fromWeb(download.body as unknown as WebReadableStream)),
        fileOf(path, 0).mimeType,
      );
      const stored = await existing(path);
      if (!stored) throw new DownloadError(`stored object missing: ${path}`, true);
      return stored;
    },
    async outputsOf(folder) {
      return (await filesIn(folder))
        .filter((f) => slotOf(f.path) !== null)
        .sort((a, b) => (slotOf(a.path) ?? 0) - (slotOf(b.path) ?? 0));
    },
    async findInput(generationId, name = "source") {
      const files = await filesIn(`${inputsArea}/${generationId}`);
      return files.find((f) => inputName(name).test(f.fileName)) ?? null;
    },
    keepInput(generationId, fill, name = "source") {
      return inScratch(async (tmp) => {
        const facts = await fill(tmp);
        const path = `${inputsArea}/${generationId}/${name}.${extensionFor(facts.url, facts.contentType)}`;
        await putFile(keyOf(path), tmp);
        const stored = await existing(path);
        if (!stored) throw new Error(`stored object missing: ${path}`);
        return stored;
      });
    },
    keepParts(generationId, fill) {
      return inScratch(async (dir) => {
        await mkdir(dir, { recursive: true });
        const plan = await fill(dir);
        const folder = partsFolder(generationId);
        for (const name of await readdir(dir)) await putFile(keyOf(`${folder}/${name}`), join(dir, name));
        // the plan last: found, every part it names is in place
        await put(keyOf(`${folder}/plan.json`), [Buffer.from(JSON.stringify(plan))], "application/json");
        return plan;
      });
    },
    async findParts(generationId) {
      try {
        const got = await client.send(
          new GetObjectCommand({ Bucket, Key: keyOf(`${partsFolder(generationId)}/plan.json`) }),
        );
        const plan: unknown = JSON.parse((await got.Body?.transformToString()) ?? "null");
        return Array.isArray(plan) ? plan : null;
      } catch (err) {
        if (notFound(err) || err instanceof SyntaxError) return null;
        throw err;
      }
    },
    keepOutput(folder, slot, ext, fill) {
      return inScratch(async (tmp) => {
        await fill(tmp);
        const path = `${folder}/${slot}.${ext}`;
        await putFile(keyOf(path), tmp);
        const stored = await existing(path);
        if (!stored) throw new Error(`stored object missing: ${path}`);
        return stored;
      });
    },
    async folders(area) {
      const names: string[] = [];
      for await (const page of keysUnder(area ? `${area}/` : "", "/"))
        for (const p of page.CommonPrefixes ?? [])
          if (p.Prefix) names.push(p.Prefix.slice(area ? area.length + 1 : 0, -1));
      return names;
    },
    async removeFolder(folder) {
      for await (const page of keysUnder(`${folder}/`))
        for (const o of page.Contents ?? [])
          if (o.Key) await client.send(new DeleteObjectCommand({ Bucket, Key: o.Key }));
      await abortUnfinished(`${folder}/`);
    },
    async open(path) {
      const got = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(path) }));
      if (!(got.Body instanceof Readable)) throw new Error(`no body for ${path}`);
      return got.Body;
    },
    async withLocalFiles(files, use) {
      return inScratch(async (dir) => {
        await mkdir(dir, { recursive: true });
        const paths: string[] = [];
        for (const [i, f] of files.entries()) {
          const local = join(dir, `${i}-${f.fileName}`);
          await pipeline(await store.open(f.path), releasingChunks(), createWriteStream(local));
          paths.push(local);
        }
        return use(paths);
      });
    },
    link: (path, seconds, downloadAs) =>
      getSignedUrl(
        signer,
        new GetObjectCommand({
          Bucket,
          Key: keyOf(path),
          ...(downloadAs ? { ResponseContentDisposition: `attachment; filename="${downloadAs}"` } : {}),
        }),
        { expiresIn: Math.min(Math.max(1, Math.floor(seconds)), longestLinkSeconds) },
      ),
    abortStaleUploads: (olderThan) => abortUnfinished("", olderThan),
  };
  return store;
}

/**
 * Scratch files a crash left (a dub's source copied out of the bucket, its
 * parts): removed when a day old, as the store opens. Younger ones may be
 * another worker's on the same volume.
 */
export async function sweepScratch(scratch: string, now = Date.now()): Promise<void> {
  const names = await readdir(scratch).catch(() => [] as string[]);
  for (const name of names) {
    const made = await stat(join(scratch, name)).catch(() => null);
    if (made && now - made.mtimeMs > 24 * 3_600_000)
      await rm(join(scratch, name), { recursive: true, force: true });
  }
}
