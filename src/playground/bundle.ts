import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { projectPath } from "../lib/project-root";

const webDir = projectPath("src", "playground", "web");
/** dist/playground at the project root */
const pageDir = projectPath("dist", "playground");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when dist/ has no page, or one older than its sources (an image ships the page without them). */
function pageIsStale(): boolean {
  const index = join(pageDir, "index.html");
  if (!existsSync(index)) return true;
  return existsSync(webDir) && statSync(index).mtimeMs < newestSource(webDir);
}

/**
 * Builds the page with Vite into dist/playground when missing or stale. Built
 * beside it first and then moved in, so a second process starting at the same
 * moment never serves half a build.
 */
export async function ensurePage(): Promise<{ built: boolean; dir: string }> {
  if (!pageIsStale()) return { built: false, dir: pageDir };
  const { build } = await import("vite");
  const staging = `${pageDir}.build-${process.pid}`;
  await build({
    configFile: false,
    root: webDir,
    base: "./",
    logLevel: "warn",
    esbuild: { jsx: "automatic", jsxImportSource: "preact" },
    build: { outDir: staging, emptyOutDir: true, reportCompressedSize: false },
  });
  rmSync(pageDir, { recursive: true, force: true });
  try {
    renameSync(staging, pageDir);
  } catch {
    // another process moved its build in first: the same sources, keep that one
    rmSync(staging, { recursive: true, force: true });
  }
  return { built: true, dir: pageDir };
}
