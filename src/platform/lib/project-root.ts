import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder holding package.json, whether this runs from the sources (tsx) or
 * from the build in dist/: files shipped beside the code (locales, migrations,
 * fixtures) are found from here in both.
 */
function findProjectRoot(from: string): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
}

const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

/** A file or folder of the project, by its path from the project root. */
export const projectPath = (...parts: string[]) => join(projectRoot, ...parts);
