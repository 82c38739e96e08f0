import { randomUUID } from "node:crypto";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/** Runs `write` on a temporary file of this process's scratch disk, removed afterwards. */
export async function withScratch<T>(
  scratch: string,
  write: (temporaryPath: string) => Promise<T>,
): Promise<T> {
  await mkdir(scratch, { recursive: true });
  const tmp = join(scratch, `${randomUUID()}.part`);
  try {
    return await write(tmp);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
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
