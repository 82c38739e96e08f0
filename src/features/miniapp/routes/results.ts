import { Hono } from "hono";
import { z } from "zod";
import { describeParams } from "../../../domain/generations/params";
import { type ResendApi, resendResult } from "../../../domain/generations/resend-result";
import { galleryUrlFor } from "../../../domain/generations/result-keyboard";
import type { Logger } from "../../../platform/lib/logger";
import { shorten } from "../../../platform/lib/shorten";
import { answer, fail, invalid } from "../answers";
import * as contract from "../contract";
import { type AppEnv, callerWords, type RouteGuards } from "../guard";
import { galleryPage, ownResult, type PresetDeps, presetOf, type ResultsDeps, resultView } from "../results";

export interface ResultRoutesDeps extends ResultsDeps, Pick<PresetDeps, "prices" | "inputs"> {
  api: ResendApi;
  /** the app's own address: a result sent to the chat again carries its "Gallery" button */
  miniAppUrl: string;
  logger: Pick<Logger, "warn">;
  guards: Pick<RouteGuards, "spends">;
}

const uuid = z.uuid();

/** The caller's results: gallery pages, one result, the composer preset by its buttons, and sending it to the chat again. */
export function resultRoutes(deps: ResultRoutesDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { spends } = deps.guards;
  const own = async (userId: number, id: string) =>
    uuid.safeParse(id).success ? await ownResult(deps, userId, id) : undefined;

  app.get("/gallery", async (c) => {
    const query = contract.galleryQuery.safeParse(c.req.query());
    if (!query.success) return invalid(c, query.error);
    if (query.data.before !== undefined && !uuid.safeParse(query.data.before).success)
      return fail(c, { error: "invalid", message: "before: not a cursor of this gallery" });
    const page = await galleryPage(deps, c.get("caller").id, c.get("language"), query.data);
    return answer(c, contract.galleryResponse, page);
  });

  app.get("/results/:id", async (c) => {
    const g = await own(c.get("caller").id, c.req.param("id"));
    if (!g) return fail(c, { error: "not_found" });
    return answer(c, contract.resultResponse, await resultView(deps, g, c.get("language")));
  });

  // "again" keeps the result's inputs for the caller (a Redis key each): bounded like what spends
  app.get("/results/:id/preset", spends, async (c) => {
    const query = contract.presetQuery.safeParse(c.req.query());
    if (!query.success) return invalid(c, query.error);
    const userId = c.get("caller").id;
    const g = await own(userId, c.req.param("id"));
    if (!g) return fail(c, { error: "not_found" });
    const preset = await presetOf(deps, g, userId, query.data);
    if (!preset) return fail(c, { error: "not_available" });
    return answer(c, contract.presetResponse, preset);
  });

  app.post("/results/:id/resend", spends, async (c) => {
    const userId = c.get("caller").id;
    const g = await own(userId, c.req.param("id"));
    if (!g) return fail(c, { error: "not_found" });
    const t = callerWords(c, deps.t);
    try {
      await resendResult(
        deps.api,
        { chatId: userId, galleryUrl: galleryUrlFor(userId, deps.miniAppUrl) },
        g,
        shorten(describeParams(deps.generations.paramsOf(g), t), 900),
        t,
      );
    } catch (err) {
      deps.logger.warn({ err, userId, generationId: g.id }, "mini app: result not sent again");
      return fail(c, { error: "not_available", message: t("error-generic") });
    }
    return answer(c, contract.resendResponse, { sent: true });
  });

  return app;
}
