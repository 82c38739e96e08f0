import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { releasingChunks } from "../lib/release-chunks";
import {
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

/**
 * The media store in a directory of this host (the embedded default): one
 * folder per generation. Writes go to a temporary name first, so a crash never
 * leaves a half file that looks complete. Every process that serves or sends
 * its files must see the same directory; the bucket store has no such need.
 */
export function createMediaStore(
  root: string,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): MediaStore & { root: string; resolve(path: string): string } {
  const resolve = (path: string) => join(root, keyOf(path));

  async function existing(path: string): Promise<StoredFile | null> {
    try {
      return fileOf(path, (await stat(resolve(path))).size);
    } catch {
      return null;
    }
  }

  /**
   * Writes `path` through `fill` under a temporary name of its own, renamed
   * into place once complete: two writers of one slot at once (a job run
   * again while the first still runs) never share a file.
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

  async function filesIn(folder: string): Promise<StoredFile[]> {
    const names = await readdir(resolve(folder)).catch(() => [] as string[]);
    const files = await Promise.all(names.map((n) => existing(`${folder}/${n}`)));
    return files.filter((f): f is StoredFile => f !== null);
  }

  return {
    kind: "local",
    root,
    resolve,
    existing,
    async copy(folder, index, url) {
      // one listing rather than a stat per known extension: this runs before every result is sent
      const names = await readdir(resolve(folder)).catch(() => null);
      if (names === null) await mkdir(resolve(folder), { recursive: true });
      const kept = names?.find((n) => slotOf(n) === index);
      if (kept) {
        const found = await existing(`${folder}/${kept}`);
        if (found) return found;
      }
      const { body, extension } = await downloadOutput(url, options);
      return place(`${folder}/${index}.${extension}`, (tmp) =>
        pipeline(
          Readable.fromWeb(body as unknown as WebReadableStream),
          releasingChunks(),
          createWriteStream(tmp),
        ),
      );
    },
    async outputsOf(folder) {
      return (await filesIn(folder))
        .filter((f) => slotOf(f.path) !== null)
        .sort((a, b) => (slotOf(a.path) ?? 0) - (slotOf(b.path) ?? 0));
    },
    async findInput(generationId, name = "source") {
      const names = await readdir(resolve(`${inputsArea}/${generationId}`)).catch(() => [] as string[]);
      const found = names.find((n) => inputName(name).test(n));
      return found ? existing(`${inputsArea}/${generationId}/${found}`) : null;
    },
    async keepInput(generationId, fill, name = "source") {
      const folder = `${inputsArea}/${generationId}`;
      await mkdir(resolve(folder), { recursive: true });
      const tmp = resolve(`${folder}/${randomUUID()}.part`);
      try {
        const facts = await fill(tmp);
        const path = `${folder}/${name}.${extensionFor(facts.url, facts.contentType)}`;
        await rename(tmp, resolve(path));
        const stored = await existing(path);
        if (!stored) throw new Error(`stored file disappeared: ${path}`);
        return stored;
      } finally {
        await rm(tmp, { force: true });
      }
    },
    async keepParts(generationId, fill) {
      const folder = partsFolder(generationId);
      const tmp = resolve(`${inputsArea}/${generationId}/${randomUUID()}.parts`);
      await mkdir(tmp, { recursive: true });
      try {
        const plan = await fill(tmp);
        await writeFile(join(tmp, "plan.json"), JSON.stringify(plan));
        await rm(resolve(folder), { recursive: true, force: true });
        // the folder renamed into place with its plan: found, every part is there
        await rename(tmp, resolve(folder));
        return plan;
      } finally {
        await rm(tmp, { recursive: true, force: true });
      }
    },
    async findParts(generationId) {
      try {
        const plan: unknown = JSON.parse(
          await readFile(resolve(`${partsFolder(generationId)}/plan.json`), "utf8"),
        );
        return Array.isArray(plan) ? plan : null;
      } catch {
        return null;
      }
    },
    async keepOutput(folder, slot, ext, fill) {
      await mkdir(resolve(folder), { recursive: true });
      return place(`${folder}/${slot}.${ext}`, fill);
    },
    async folders(area) {
      const entries = await readdir(area ? resolve(area) : root, { withFileTypes: true }).catch(() => []);
      return entries.filter((e) => e.isDirectory()).map((e) => e.name);
    },
    async removeFolder(folder) {
      const files = await readdir(resolve(folder), { recursive: true, withFileTypes: true }).catch(() => []);
      await rm(resolve(folder), { recursive: true, force: true });
      return files.filter((f) => f.isFile()).length;
    },
    open: async (path) => createReadStream(resolve(path)),
    withLocalFiles: (files, use) => use(files.map((f) => resolve(f.path))),
    link: async () => null,
    // a crash leaves only `.part` files, which no lookup takes for a file and retention removes with their folder
    abortStaleUploads: async () => 0,
  };
}
