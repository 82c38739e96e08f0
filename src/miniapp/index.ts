import type { Hono } from "hono";
import { type MiniAppDeps, miniAppApi } from "./api";
import { miniAppPageDir } from "./bundle";
import { miniAppPage } from "./page";

/** The Mini App: its JSON API and its page. Code outside this folder imports it from here only. */
export type { MiniAppDeps } from "./api";
export { ensureMiniAppPage } from "./bundle";

/**
 * The API at /app/api and the built page at /app/ (dist/miniapp), on the web role's
 * server; `mediaOrigin`: where a bucket store serves the gallery's files.
 */
export function mountMiniApp(
  app: Hono,
  deps: MiniAppDeps,
  page: { distDir?: string; mediaOrigin?: string | undefined } = {},
): void {
  app.route("/app/api", miniAppApi(deps));
  app.route("/app", miniAppPage({ distDir: page.distDir ?? miniAppPageDir, mediaOrigin: page.mediaOrigin }));
}
