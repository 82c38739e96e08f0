import { Hono } from "hono";
import type { TranslateFor } from "../../../platform/i18n/i18n";
import type { Logger } from "../../../platform/lib/logger";
import type { Erasure } from "../../privacy";
import { answer, fail, invalid, jsonBody } from "../answers";
import * as contract from "../contract";
import { type AppEnv, callerWords, type RouteGuards } from "../guard";

export interface PrivacyRoutesDeps {
  erasure: Pick<Erasure, "erase">;
  t: TranslateFor;
  logger: Pick<Logger, "info">;
  guards: RouteGuards;
}

/** "Delete my data" from the page: the same erasure as /privacy's, once the page asked again. */
export function privacyRoutes(deps: PrivacyRoutesDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  // the spending guard's rate limit: an erasure scans Redis and rewrites the user's rows
  app.post("/privacy/erase", deps.guards.spends, deps.guards.smallBody, async (c) => {
    const body = contract.eraseRequestSchema.safeParse(await jsonBody(c));
    if (!body.success) return invalid(c, body.error);
    const userId = c.get("caller").id;
    const t = callerWords(c, deps.t);
    const erased = await deps.erasure.erase(userId);
    // a result was still on its way: nothing was erased, the page may ask again
    if (erased === "busy") return fail(c, { error: "not_available", message: t("privacy-delete-failed") });
    deps.logger.info({ userId, ...erased, from: "mini app" }, "a user's data erased at their request");
    return answer(c, contract.eraseResponse, {
      ...erased,
      message: t("privacy-deleted", { ...erased }),
    });
  });

  return app;
}
