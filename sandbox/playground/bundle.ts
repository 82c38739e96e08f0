import { projectPath } from "../../src/platform/lib/project-root";
import { ensureVitePage } from "../../src/platform/lib/vite-page";

/** Builds the playground page into dist/playground when missing or stale. */
export function ensurePage(): Promise<{ built: boolean; dir: string }> {
  return ensureVitePage({
    webDir: projectPath("sandbox", "playground", "web"),
    pageDir: projectPath("dist", "playground"),
  });
}
