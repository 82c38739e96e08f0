import type { Plugin } from "vite";
import { projectPath } from "../../platform/lib/project-root";
import { ensureVitePage } from "../../platform/lib/vite-page";

/** dist/miniapp at the project root: index.html and assets/ with hashed names */
export const miniAppPageDir = projectPath("dist", "miniapp");

/**
 * The page imports only types from contract.ts: a value from it would bring zod
 * along (about 28 KB of the page's 150 KB budget). This makes such an import a
 * build error instead of a silent weight.
 */
const noZod: Plugin = {
  name: "miniapp-no-zod",
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== "chunk") continue;
      const zod = Object.entries(chunk.modules).find(
        ([id, m]) => id.includes("/node_modules/zod/") && m.renderedLength > 0,
      );
      if (zod) this.error(`zod got into the Mini App's page (${zod[0]}): import types only from contract.ts`);
    }
  },
};

/** Builds the Mini App's page into dist/miniapp when missing or stale. */
export function ensureMiniAppPage(): Promise<{ built: boolean; dir: string }> {
  return ensureVitePage(
    {
      webDir: projectPath("src", "features", "miniapp", "web"),
      pageDir: miniAppPageDir,
      // nothing inlined as data: URLs (the CSP allows none); Telegram's webviews are recent engines
      config: { plugins: [noZod], build: { assetsInlineLimit: 0, target: "es2022" } },
    },
    // the page imports these beside its own folder
    [
      projectPath("src", "features", "miniapp", "contract.ts"),
      projectPath("src", "features", "miniapp", "api-paths.ts"),
      projectPath("src", "platform", "media-service", "catalog.ts"),
    ],
  );
}
