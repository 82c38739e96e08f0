import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { InlineConfig } from "vite";

/** A web page of this project built by Vite: its sources and where the build goes in dist/. */
export interface VitePage {
  webDir: string;
  pageDir: string;
  /** more of Vite's settings (its own `build` options are merged over the defaults) */
  config?: InlineConfig;
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when dist/ has no page, or one older than its sources (an image ships the page without them). */
function pageIsStale({ webDir, pageDir }: VitePage, sharedSources: string[]): boolean {
  const index = join(pageDir, "index.html");
  if (!existsSync(index)) return true;
  if (!existsSync(webDir)) return false;
  const newest = Math.max(
    newestSource(webDir),
    ...sharedSources.filter((f) => existsSync(f)).map((f) => statSync(f).mtimeMs),
  );
  return statSync(index).mtimeMs < newest;
}

/**
 * Builds a page with Vite into dist/ when missing or stale. Built beside it
 * first and then moved in, so a second process starting at the same moment
 * never serves half a build. `sharedSources`: files outside webDir the page
 * imports (a change there makes the page stale too).
 */
export async function ensureVitePage(
  page: VitePage,
  sharedSources: string[] = [],
): Promise<{ built: boolean; dir: string }> {
  const { webDir, pageDir, config = {} } = page;
  if (!pageIsStale(page, sharedSources)) return { built: false, dir: pageDir };
  const { build } = await import("vite");
  const staging = `${pageDir}.build-${process.pid}`;
  await build({
    configFile: false,
    root: webDir,
    base: "./",
    logLevel: "warn",
    // jsxDev off: the same page whatever NODE_ENV the builder runs under (vitest sets "test")
    esbuild: { jsx: "automatic", jsxImportSource: "preact", jsxDev: false },
    ...config,
    build: { reportCompressedSize: false, ...config.build, outDir: staging, emptyOutDir: true },
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
