import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { projectPath } from "../../src/platform/lib/project-root";

/** Output files the simulator serves itself under /files/<name>, made on request or written to disk. */

export type StoredFile =
  | { contentType: string; bytes: Buffer }
  | { contentType: string; path: string; size: number };

/**
 * A file is made when it is added, as a service's outputs exist once it says a
 * task completed: a client's download right after the webhook only reads it.
 * Made files are kept in memory for the most recent `cacheSize` only; they are
 * made again, identically, when asked. Files written to disk (dubbing outputs,
 * which cannot be made again cheaply) live in a temporary directory of the
 * store, created when first needed and removed by `close`.
 */
export function createFileStore(cacheSize = 64) {
  const made = new Map<string, { contentType: string; make: () => Buffer }>();
  const written = new Map<string, { contentType: string; path: string; size: number }>();
  const cache = new Map<string, Buffer>();
  let directory: Promise<string> | undefined;
  let closed = false;

  const newName = (ext: string) => `${randomBytes(12).toString("hex")}.${ext}`;

  function ownDirectory(): Promise<string> {
    if (closed) return Promise.reject(new Error("the simulator's file store is closed"));
    directory ??= mkdtemp(join(tmpdir(), "media-simulator-"));
    return directory;
  }

  function get(name: string): StoredFile | undefined {
    const onDisk = written.get(name);
    if (onDisk) return onDisk;
    const f = made.get(name);
    if (!f) return undefined;
    let bytes = cache.get(name);
    if (bytes) cache.delete(name);
    else bytes = f.make();
    cache.set(name, bytes);
    for (const oldest of cache.keys()) {
      if (cache.size <= cacheSize) break;
      cache.delete(oldest);
    }
    return { contentType: f.contentType, bytes };
  }

  return {
    add(ext: string, contentType: string, make: () => Buffer): string {
      const name = newName(ext);
      made.set(name, { contentType, make });
      get(name);
      return name;
    },
    /** Serves the file `write` makes at the path it is given; a failed write leaves nothing behind. */
    async addWritten(
      ext: string,
      contentType: string,
      write: (path: string) => Promise<void>,
    ): Promise<string> {
      const name = newName(ext);
      const path = join(await ownDirectory(), name);
      try {
        await write(path);
        const { size } = await stat(path);
        written.set(name, { contentType, path, size });
        return name;
      } catch (e) {
        await rm(path, { force: true });
        throw e;
      }
    },
    /** Keeps bytes on disk, not served, until `discard` (a dubbing source waiting for its turn). */
    async keep(bytes: Buffer, ext: string): Promise<string> {
      const path = join(await ownDirectory(), `source-${newName(ext)}`);
      try {
        await writeFile(path, bytes);
        return path;
      } catch (e) {
        await rm(path, { force: true });
        throw e;
      }
    },
    async discard(path: string): Promise<void> {
      await rm(path, { force: true });
    },
    get,
    /** Removes the temporary directory with every file written to it; nothing can be added after. */
    async close(): Promise<void> {
      closed = true;
      const dir = await directory?.catch(() => undefined);
      written.clear();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
export type FileStore = ReturnType<typeof createFileStore>;

const fixtureDir = pathToFileURL(`${projectPath("sandbox", "simulator", "fixtures")}/`);
const fixtureCache = new Map<string, Buffer>();

/** Where a committed fixture is on disk, for ffmpeg to read. */
export const fixturePath = (name: string): string => projectPath("sandbox", "simulator", "fixtures", name);

/** A committed fixture (small MP4/MP3 files made with ffmpeg, see fixtures/README.md). */
export function fixture(name: string): Buffer {
  let bytes = fixtureCache.get(name);
  if (!bytes) {
    bytes = readFileSync(new URL(name, fixtureDir));
    fixtureCache.set(name, bytes);
  }
  return bytes;
}
