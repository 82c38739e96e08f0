import type { Api } from "grammy";
import type { Hono } from "hono";
import type { Feature } from "../../bot/feature";
import { defaultRateLimit } from "../../bot/middleware/rate-limit";
import { dubInputRules } from "../../domain/generations/inputs";
import type { Config } from "../../platform/config/config";
import type { MediaStore } from "../../platform/storage/stored-file";
import { createPreferences } from "../preferences";
import { type MiniAppDeps, miniAppApi } from "./api";
import { miniAppPageDir } from "./bundle";
import { miniAppPage } from "./page";

/** The Mini App: its JSON API and its page. Code outside this folder imports it from here only. */
export { ensureMiniAppPage } from "./bundle";

/**
 * The API at /app/api and the built page at /app/ (dist/miniapp), on the web role's
 * server; `mediaOrigin`: where a bucket store serves the gallery's files.
 */
function mountMiniApp(
  app: Hono,
  deps: MiniAppDeps,
  page: { distDir?: string; mediaOrigin?: string | undefined } = {},
): void {
  app.route("/app/api", miniAppApi(deps));
  app.route("/app", miniAppPage({ distDir: page.distDir ?? miniAppPageDir, mediaOrigin: page.mediaOrigin }));
}

type MiniAppFeatureDeps = Pick<
  MiniAppDeps,
  | "db"
  | "redis"
  | "users"
  | "ledger"
  | "generations"
  | "prices"
  | "subscriptions"
  | "erasure"
  | "reports"
  | "t"
  | "logger"
> & {
  config: Config;
  /** the Telegram API; none without BOT_TOKEN, and then no Mini App */
  api: Api | undefined;
  store: Pick<MediaStore, "outputsOf" | "link">;
  broadcasts: { store: MiniAppDeps["broadcasts"] };
  now(): number;
};

/** The same stores, prices, limits and Telegram API as the chat; served where MINI_APP_URL is set. */
export const miniApp: Feature<MiniAppFeatureDeps> = {
  name: "miniapp",
  web: async (app, deps) => {
    const { config, api } = deps;
    const botToken = config.telegram.token;
    if (!config.miniAppUrl || !botToken || !api) return;
    // Where phones fetch a bucket store's files: the origin of a presigned link as the
    // store makes them (virtual-hosted or path-style); none for a local store, whose files are ours.
    const origin = await deps.store.link("mini-app-origin", 60);
    mountMiniApp(
      app,
      {
        ...deps,
        botToken,
        api,
        redisPrefix: config.redis.prefix,
        packs: config.creditPacks,
        plans: config.plans,
        adminIds: config.adminIds,
        sandbox: config.sandbox,
        broadcasts: deps.broadcasts.store,
        signer: { publicUrl: config.publicUrl, signingSecret: config.signingSecret, now: deps.now },
        storageChatId: config.inlineStorageChatId,
        rateLimit: defaultRateLimit,
        miniAppUrl: config.miniAppUrl,
        dubRules: dubInputRules(config),
        preferences: createPreferences(deps.db),
      },
      { mediaOrigin: origin ? new URL(origin).origin : undefined },
    );
  },
};
