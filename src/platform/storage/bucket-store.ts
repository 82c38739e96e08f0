import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { BucketSettings } from "../config/config";
import { releaseChunks, releasingChunks } from "../lib/release-chunks";
import { bucketCalls, clientOf, notFound } from "./bucket-calls";
import { withScratch } from "./scratch";
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
  const { keysUnder, abortUnfinished, put } = bucketCalls(client, Bucket);
  const inScratch = <T>(write: (temporaryPath: string) => Promise<T>) => withScratch(scratch, write);

  async function filesIn(folder: string): Promise<StoredFile[]> {
    const files: StoredFile[] = [];
    for await (const page of keysUnder(`${folder}/`, "/"))
      for (const o of page.Contents ?? []) if (o.Key) files.push(fileOf(o.Key, o.Size ?? 0));
    return files;
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
      let removed = 0;
      for await (const page of keysUnder(`${folder}/`))
        for (const o of page.Contents ?? [])
          if (o.Key) {
            await client.send(new DeleteObjectCommand({ Bucket, Key: o.Key }));
            removed++;
          }
      await abortUnfinished(`${folder}/`);
      return removed;
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
