import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join, normalize, sep } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { releasingChunks } from "../lib/release-chunks";

export interface StoredFile {
  /** path relative to the store root, e.g. "<gid>/0.png" */
  path: string;
  absolutePath: string;
  size: number;
  mimeType: string;
  fileName: string;
}

const extensionOf: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "video/webm": "webm",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/ogg": "ogg",
};
const mimeOfExtension = Object.fromEntries(Object.entries(extensionOf).map(([m, e]) => [e, m]));
/** what a copied output may be named after its slot number */
const slotExtensions = new Set([...Object.values(extensionOf), "bin"]);

/** Where a generation's pinned input lives: `inputs/<generation id>/source.<ext>`. */
export const inputsArea = "inputs";
const inputName = /^source\.[a-z0-9]{2,4}$/;

function guessExtension(url: string, contentType: string | null): string {
  const fromType = contentType ? extensionOf[contentType.split(";")[0]!.trim().toLowerCase()] : undefined;
  if (fromType) return fromType;
  const m = /\.([a-z0-9]{2,4})(?:$|[?#])/i.exec(new URL(url).pathname);
  return m?.[1]?.toLowerCase() ?? "bin";
}

export class DownloadError extends Error {
  override name = "DownloadError";
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/**
 * Our own copy of every output (the service asks clients to copy them): a
 * directory, one folder per generation. Writes go to a temporary name first,
 * so a crash never leaves a half file that looks complete.
 */
export function createMediaStore(root: string, options: { fetch?: typeof fetch; timeoutMs?: number } = {}) {
  const doFetch = options.fetch ?? fetch;

  function resolve(path: string): string {
    const clean = normalize(path);
    if (clean.startsWith("..") || clean.startsWith(sep)) throw new Error(`path escapes the store: ${path}`);
    return join(root, clean);
  }

  async function existing(path: string): Promise<StoredFile | null> {
    try {
      const s = await stat(resolve(path));
      const ext = path.split(".").pop() ?? "bin";
      return {
        path,
        absolutePath: resolve(path),
        size: s.size,
        mimeType: mimeOfExtension[ext] ?? "application/octet-stream",
        fileName: path.split("/").pop() ?? path,
      };
    } catch {
      return null;
    }
  }

  /** Copies one output into the store; a second call for the same slot reuses the file. */
  async function copy(folder: string, index: number, url: string): Promise<StoredFile> {
    const dir = resolve(folder);
    // one listing rather than a stat per known extension: this runs before every result is sent
    const names = await readdir(dir).catch(() => null);
    if (names === null) await mkdir(dir, { recursive: true });
    const kept = names?.find(
      (n) => slotExtensions.has(n.slice(`${index}.`.length)) && n.startsWith(`${index}.`),
    );
    if (kept) {
      const found = await existing(`${folder}/${kept}`);
      if (found) return found;
    }
    let res: Response;
    try {
      res = await doFetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 120_000) });
    } catch (err) {
      throw new DownloadError(`output download failed: ${(err as Error).message}`, true);
    }
    if (!res.ok || !res.body) {
      throw new DownloadError(
        `output download answered ${res.status}`,
        res.status >= 500 || res.status === 429,
      );
    }
    const body = res.body;
    const ext = guessExtension(url, res.headers.get("content-type"));
    return place(`${folder}/${index}.${ext}`, (tmp) =>
      pipeline(
        Readable.fromWeb(body as unknown as WebReadableStream),
        releasingChunks(),
        createWriteStream(tmp),
      ),
    );
  }

  /**
   * Writes `path` through `fill` under a temporary name of its own, renamed
   * into place once complete: two writers of one slot at once (a job run
   * again while the first still runs) never share a file, and a crash never
   * leaves a half file that looks complete.
   */
  async function place(path: string, fill: (temporaryPath: string) => Promise<void>): Promise<StoredFile> {
    const tmp = `${resolve(path)}.${randomUUID()}.part`;
    try {
      await fill(tmp);
      await rename(tmp, resolve(path));
    } finally {
      await rm(tmp, { force: true });
    }
    const stored = await existing(path);
    if (!stored) throw new Error(`stored file disappeared: ${path}`);
    return stored;
  }

  /** The outputs copied for a generation, in slot order (none once retention removed them). */
  async function outputsOf(folder: string): Promise<StoredFile[]> {
    const names = await readdir(resolve(folder)).catch(() => [] as string[]);
    const slots = names
      .map((name) => ({ name, slot: /^(\d+)\.([a-z0-9]{2,4})$/.exec(name) }))
      .filter((n) => n.slot && slotExtensions.has(n.slot[2]!))
      .sort((a, b) => Number(a.slot![1]) - Number(b.slot![1]));
    const files = await Promise.all(slots.map((n) => existing(`${folder}/${n.name}`)));
    return files.filter((f): f is StoredFile => f !== null);
  }

  /** A generation's pinned input, if a complete one was kept. */
  async function findInput(generationId: string): Promise<StoredFile | null> {
    const folder = `${inputsArea}/${generationId}`;
    const names = await readdir(resolve(folder)).catch(() => [] as string[]);
    const name = names.find((n) => inputName.test(n));
    return name ? existing(`${folder}/${name}`) : null;
  }

  /**
   * Keeps a generation's input: `fill` writes it to a temporary name of its
   * own, renamed once `fill` resolves; a crash or a failed `fill` never leaves
   * a file `findInput` would take for complete. `fill` says the extension.
   */
  async function keepInput(
    generationId: string,
    fill: (temporaryPath: string) => Promise<{ contentType?: string | undefined; url: string }>,
  ): Promise<StoredFile> {
    const folder = `${inputsArea}/${generationId}`;
    await mkdir(resolve(folder), { recursive: true });
    const tmp = resolve(`${folder}/${randomUUID()}.part`);
    try {
      const { contentType, url } = await fill(tmp);
      const path = `${folder}/source.${guessExtension(url, contentType ?? null)}`;
      await rename(tmp, resolve(path));
      const stored = await existing(path);
      if (!stored) throw new Error(`stored file disappeared: ${path}`);
      return stored;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  const partsFolder = (generationId: string) => `${inputsArea}/${generationId}/parts`;

  /**
   * Keeps the parts of a generation's input (a dub in parts): `fill` writes
   * them into a temporary folder of its own and says where each lies in the
   * input; the folder is renamed into place with that plan beside the parts,
   * so `findParts` never takes a half-cut input for complete.
   */
  async function keepParts<P>(
    generationId: string,
    fill: (temporaryDir: string) => Promise<P[]>,
  ): Promise<P[]> {
    const folder = partsFolder(generationId);
    const tmp = resolve(`${inputsArea}/${generationId}/${randomUUID()}.parts`);
    await mkdir(tmp, { recursive: true });
    try {
      const plan = await fill(tmp);
      await writeFile(join(tmp, "plan.json"), JSON.stringify(plan));
      await rm(resolve(folder), { recursive: true, force: true });
      await rename(tmp, resolve(folder));
      return plan;
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  /** The plan of a generation's kept parts (as `keepParts` was given it), or null before they are kept. */
  async function findParts(generationId: string): Promise<unknown[] | null> {
    try {
      const plan: unknown = JSON.parse(
        await readFile(resolve(`${partsFolder(generationId)}/plan.json`), "utf8"),
      );
      return Array.isArray(plan) ? plan : null;
    } catch {
      return null;
    }
  }

  /**
   * Writes a generation's output in slot `slot` ourselves (a dub joined from
   * its parts), through a temporary name; `copy` then finds it in place.
   */
  async function keepOutput(
    folder: string,
    slot: number,
    ext: string,
    fill: (temporaryPath: string) => Promise<void>,
  ): Promise<StoredFile> {
    await mkdir(resolve(folder), { recursive: true });
    return place(`${folder}/${slot}.${ext}`, fill);
  }

  /** whether a path names something inside the store (a file or not) */
  function contains(path: string): boolean {
    try {
      resolve(path);
      return true;
    } catch {
      return false;
    }
  }

  /** the generation folders at the top of the store, or of one of its areas (`inputsArea`) */
  async function folders(area?: string): Promise<string[]> {
    const entries = await readdir(area ? resolve(area) : root, { withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isDirectory()).map((e) => e.name);
  }

  return {
    root,
    copy,
    existing,
    outputsOf,
    findInput,
    keepInput,
    keepParts,
    findParts,
    /** where part `index` of a generation's kept parts is (`keepParts` writes `<index>.mp3`) */
    partPath: (generationId: string, index: number) => `${partsFolder(generationId)}/${index}.mp3`,
    keepOutput,
    contains,
    folders,
    removeFolder: (folder: string) => rm(resolve(folder), { recursive: true, force: true }),
    open: (path: string) => createReadStream(resolve(path)),
    resolve,
  };
}
export type MediaStore = ReturnType<typeof createMediaStore>;
