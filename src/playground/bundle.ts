import { projectPath } from "../lib/project-root";
import { ensureVitePage } from "../lib/vite-page";

/** Builds the playground page into dist/playground when missing or stale. */
export function ensurePage(): Promise<{ built: boolean; dir: string }> {
  return ensureVitePage({
    webDir: projectPath("src", "playground", "web"),
    pageDir: projectPath("dist", "playground"),
  });
}
