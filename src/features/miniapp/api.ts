import type { Api } from "grammy";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Redis } from "ioredis";
import type { Ledger } from "../../domain/credits/ledger";
import type { GenerationCreation } from "../../domain/generations/create";
import type { DubInputRules } from "../../domain/generations/inputs";
import type { GenerationReads } from "../../domain/generations/reads";
import type { Prices } from "../../domain/pricing/prices";
import type { Users } from "../../domain/users/users";
import type { CreditPack } from "../../platform/config/credit-packs";
import type { Plan } from "../../platform/config/plans";
import type { Database } from "../../platform/db/client";
import type { TranslateFor } from "../../platform/i18n/i18n";
import type { Logger } from "../../platform/lib/logger";
import { rateWindow, userRateKeyPrefix } from "../../platform/lib/rate-window";
import type { MediaStore } from "../../platform/storage/stored-file";
import type { createBroadcastStore } from "../broadcasts";
import type { ReportStore } from "../moderation";
import type { PlanSubscriptions } from "../payments";
import type { Preferences } from "../preferences";
import type { Erasure } from "../privacy";
import { fail } from "./answers";
import { type AppEnv, callerGuard, type RouteGuards, spendingLimit } from "./guard";
import { keptInputs } from "./inputs";
import { galleryLinks, type LinkSigner } from "./media-links";
import { adminRoutes } from "./routes/admin";
import { buyRoutes } from "./routes/buy";
import { creditRoutes } from "./routes/credits";
import { generateRoutes } from "./routes/generate";
import { privacyRoutes } from "./routes/privacy";
import { resultRoutes } from "./routes/results";

export interface MiniAppDeps {
  botToken: string;
  db: Database;
  redis: Redis;
  redisPrefix: string;
  users: Pick<Users, "get" | "touch">;
  ledger: Pick<Ledger, "account">;
  generations: Pick<GenerationCreation, "create"> &
    Pick<GenerationReads, "get" | "paramsOf" | "deliveredWithFiles">;
  prices: Prices;
  packs: readonly CreditPack[];
  plans: readonly Plan[];
  subscriptions: Pick<PlanSubscriptions, "active" | "discountOf">;
  adminIds: readonly number[];
  /** test payments: invoices say so, as /buy's */
  sandbox: boolean;
  api: Api;
  store: Pick<MediaStore, "outputsOf">;
  broadcasts: Pick<ReturnType<typeof createBroadcastStore>, "latest" | "counts">;
  signer: LinkSigner;
  /** INLINE_STORAGE_CHAT_ID: where uploads go for a file_id; the user's chat when unset */
  storageChatId: number | undefined;
  t: TranslateFor;
  logger: Logger;
  /** the per-user window of the chat's rate limit (rate-limit.ts) */
  rateLimit: { limit: number; windowMs: number; redisTimeoutMs: number };
  /** the app's own address: a result sent to the chat again carries its "Gallery" button */
  miniAppUrl: string;
  /** how long and how big a dubbing source may be, as in the chat */
  dubRules: DubInputRules;
  /** the options each operation starts from, shared with the chat's panels and /settings */
  preferences: Pick<Preferences, "all" | "remember">;
  /** "Delete my data", as /privacy's */
  erasure: Pick<Erasure, "erase">;
  /** reports of results in groups, for the admin tab */
  reports: Pick<ReportStore, "open">;
}

/** A request's JSON is a few KB at most (16 inputs, a 2,000-character prompt): more is refused before it is read. */
const jsonMaxBytes = 64 * 1024;

/**
 * The JSON API of the Mini App under /app/api (paths in contract.ts): every
 * call by a caller its initData names. Each resource's routes are in routes/;
 * this adds what they share: the caller guard, and the guards a route picks.
 */
export function miniAppApi(deps: MiniAppDeps): Hono<AppEnv> {
  const guards: RouteGuards = {
    spends: spendingLimit(
      rateWindow(deps.redis, { ...deps.rateLimit, keyPrefix: userRateKeyPrefix(deps.redisPrefix) }),
      deps,
    ),
    smallBody: bodyLimit({
      maxSize: jsonMaxBytes,
      onError: (c) => fail(c, { error: "invalid", message: "body: too large" }),
    }),
  };
  const shared = {
    ...deps,
    inputs: keptInputs(deps.redis, deps.redisPrefix),
    links: galleryLinks(deps.signer),
    guards,
  };

  const app = new Hono<AppEnv>();
  app.use("*", callerGuard(deps));
  app.route("/", creditRoutes(shared));
  app.route("/", resultRoutes(shared));
  app.route("/", generateRoutes(shared));
  app.route("/", buyRoutes(shared));
  app.route("/", privacyRoutes(shared));
  app.route("/", adminRoutes(shared));
  app.notFound((c) => fail(c, { error: "not_found" }));
  app.onError((err, c) => {
    deps.logger.error({ err, path: c.req.path }, "mini app: request failed");
    return c.json({ error: "unavailable" }, 500);
  });
  return app;
}
