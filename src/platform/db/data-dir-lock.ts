import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by another running instance (process ${pid}). ` +
        "Stop that one first, or give this one its own DATA_DIR.",
    );
    this.name = "DataDirLockedError";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * An exclusive lock on an embedded database directory: two processes writing
 * one PGlite directory corrupt it. A lock left by a process that died is taken over.
 * Returns the release function.
 */
export function lockDataDir(dir: string): () => void {
  // beside the directory, not in it: the database owns its directory's contents
  const path = `${dir.replace(/\/+$/, "")}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number.parseInt(readFileSync(path, "utf8"), 10);
      if (Number.isInteger(owner) && owner !== process.pid && alive(owner)) {
        throw new DataDirLockedError(dir, owner);
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock ${dir}`);
}
