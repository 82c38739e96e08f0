import { ensureMiniAppPage } from "../../src/features/miniapp";
import { loadConfig } from "../../src/platform/config/config";
import { createLogger, type Logger } from "../../src/platform/lib/logger";
import type { LinkProbeOptions } from "../../src/platform/links/link-duration";
import { secretsOf, startRuntime } from "../../src/runtime/runtime";
import { ensurePage } from "./bundle";
import { createCast } from "./cast";
import { createChatFeed } from "./chat-feed";
import { providePlaygroundRedis } from "./redis";
import { playgroundRoutes } from "./routes";
import { startTelegramStandIn } from "./telegram";

export interface Playground {
  /** the page to open */
  url: string;
  /** what stands in for what, in one line for the start-up message */
  setup: string;
  logger: Logger;
  stop(): Promise<void>;
}

/**
 * The whole product on one machine with nothing configured: the Telegram
 * stand-in with a cast of users, the bot polling it, the media service
 * simulator, embedded PGlite and Redis; the page is served by the bot's own
 * HTTP server under /playground/.
 */
export async function startPlayground(
  env: Record<string, string | undefined>,
  /** how links are read (tests: a local HTTPS server's certificate, its address allowed) */
  options: { linkProbe?: LinkProbeOptions } = {},
): Promise<Playground> {
  const stops: Array<() => Promise<unknown>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  };
  try {
    const dataDir = env.DATA_DIR || "./data";
    const redis = await providePlaygroundRedis(env, dataDir);
    stops.push(() => redis.stop());
    const page = await ensurePage();
    // the Mini App opens inside the playground: its page too, when missing or stale
    await ensureMiniAppPage();
    // update ids grow across restarts: the bot's update journal, kept in ./data, must not see one
    // twice. In milliseconds, a run would need more updates than milliseconds to the restart to overlap.
    const tg = await startTelegramStandIn({
      firstUpdateId: Date.now(),
      bot: { firstName: "Media Studio", username: "media_studio_bot" },
    });
    stops.push(() => tg.close());
    const cast = createCast(tg);
    const feed = createChatFeed(tg, () => [...cast.members.map((m) => m.user.chatId), cast.group.id]);
    stops.push(async () => feed.close());
    const admins = cast.members.filter((m) => m.admin).map((m) => m.user.id);

    const loaded = loadConfig({
      ...env,
      SANDBOX: "1",
      BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.apiRoot,
      BOT_MODE: "polling",
      REDIS_URL: redis.url,
      ADMIN_IDS: [...admins, env.ADMIN_IDS ?? ""].join(","),
      LOG_LEVEL: env.LOG_LEVEL || "warn",
    });
    // the playground is Telegram's test environment: its Mini App is served by this server, over http
    const config = { ...loaded, miniAppUrl: loaded.miniAppUrl ?? `${loaded.publicUrl}/app/` };
    const logger = createLogger(config.logLevel, undefined, secretsOf(config));
    const runtime = await startRuntime(config, {
      logger,
      ...(options.linkProbe ? { linkProbe: options.linkProbe } : {}),
      extraRoutes: {
        path: "/playground",
        app: playgroundRoutes({ tg, cast, feed, distDir: page.dir, publicUrl: config.publicUrl }),
      },
    });
    stops.push(() => runtime.stop());
    const redisFrom = {
      REDIS_URL: "REDIS_URL",
      local: "the local one on 127.0.0.1:6379",
      child: `a redis-server of its own (data in ${dataDir}/redis)`,
    }[redis.source];
    const setup = `Telegram: a local stand-in · media service: the built-in simulator · database: PGlite in ${dataDir}/pglite · Redis: ${redisFrom}`;
    return { url: `${runtime.url}/playground/`, setup, logger, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
