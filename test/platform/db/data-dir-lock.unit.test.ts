import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { DataDirLockedError, lockDataDir } from "../../../src/platform/db/data-dir-lock";

describe("the embedded database's directory lock", () => {
  const root = mkdtempSync(join(tmpdir(), "msb-lock-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test("a second instance is refused while the first runs, and may start once it stopped", () => {
    const dir = join(root, "a", "pglite");
    mkdirSync(dir, { recursive: true });
    const release = lockDataDir(dir);
    // another live process holds it (this one's parent stands in for a second instance)
    writeFileSync(`${dir}.lock`, String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    writeFileSync(`${dir}.lock`, String(process.pid));
    release();
    lockDataDir(dir)();
  });

  test("a lock left by a process that died is taken over", () => {
    const dir = join(root, "b", "pglite");
    mkdirSync(dir, { recursive: true });
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    writeFileSync(`${dir}.lock`, dead.stdout);
    const release = lockDataDir(dir);
    release();
  });
});
