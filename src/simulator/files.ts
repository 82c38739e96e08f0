import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { projectPath } from "../lib/project-root";

/** Output files the simulator serves itself under /files/<name>, made on request. */

/**
 * A file is made when it is added, as a service's outputs exist once it says a
 * task completed: a client's download right after the webhook only reads it.
 * Made files are kept in memory for the most recent `cacheSize` only; they are
 * made again, identically, when asked.
 */
export function createFileStore(cacheSize = 64) {
  const files = new Map<string, { contentType: string; make: () => Buffer }>();
  const cache = new Map<string, Buffer>();
  function get(name: string): { contentType: string; bytes: Buffer } | undefined {
    const f = files.get(name);
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
      const name = `${randomBytes(12).toString("hex")}.${ext}`;
      files.set(name, { contentType, make });
      get(name);
      return name;
    },
    get,
  };
}
export type FileStore = ReturnType<typeof createFileStore>;

const fixtureDir = pathToFileURL(`${projectPath("src", "simulator", "fixtures")}/`);
const fixtureCache = new Map<string, Buffer>();

/** A committed fixture (small MP4/MP3 files made with ffmpeg, see fixtures/README.md). */
export function fixture(name: string): Buffer {
  let bytes = fixtureCache.get(name);
  if (!bytes) {
    bytes = readFileSync(new URL(name, fixtureDir));
    fixtureCache.set(name, bytes);
  }
  return bytes;
}
