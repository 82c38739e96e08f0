import type { Api } from "grammy";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Redis } from "ioredis";
import { z } from "zod";
import type { createBroadcastStore } from "../broadcasts";
import type { Ledger } from "../credits/ledger";
import { recentEntries } from "../credits/recent-entries";
import type { Database } from "../db/client";
import { telegramDownloadMaxBytes } from "../generations/inputs";
import { describeParams } from "../generations/params";
import { resendResult } from "../generations/resend-result";
import { galleryUrlFor } from "../generations/result-keyboard";
import type { Generations } from "../generations/service";
import type { TranslateFor } from "../i18n/i18n";
import type { Logger } from "../lib/logger";
import { rateWindow, userRateKeyPrefix } from "../lib/rate-window";
import { shorten } from "../lib/shorten";
import { packInvoice } from "../payments";
import type { CreditPack } from "../pricing/packs";
import type { Prices } from "../pricing/prices";
import type { MediaStore } from "../storage/media-store";
import type { Users } from "../users/users";
import { statsByDay } from "./admin-stats";
import { answer, fail, invalid, jsonBody } from "./answers";
import { composeParams, priceOf } from "./compose";
import * as contract from "./contract";
import { type AppEnv, callerGuard, spendingLimit } from "./guard";
import { keptInputs } from "./inputs";
import { galleryLinks, type LinkSigner } from "./media-links";
import { galleryPage, ownResult, presetOf, resultView } from "./results";
import { uploadInput } from "./uploads";

export interface MiniAppDeps {
  botToken: string;
  db: Database;
  redis: Redis;
  redisPrefix: string;
  users: Pick<Users, "get" | "touch">;
  ledger: Pick<Ledger, "account">;
  generations: Pick<Generations, "get" | "paramsOf" | "deliveredWithFiles" | "create">;
  prices: Prices;
  packs: readonly CreditPack[];
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
}

const latestEntries = 20;
/** A request's JSON is a few KB at most (16 inputs, a 2,000-character prompt): more is refused before it is read. */
const jsonMaxBytes = 64 * 1024;
const latestBroadcasts = 20;
const uuid = z.uuid();

/** The JSON API of the Mini App under /app/api (paths in contract.ts): every call by a caller its initData names. */
export function miniAppApi(deps: MiniAppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const inputs = keptInputs(deps.redis, deps.redisPrefix);
  const links = galleryLinks(deps.signer);
  const results = { db: deps.db, generations: deps.generations, store: deps.store, links, t: deps.t };
  const inputDeps = { inputs, generations: deps.generations };
  const spends = spendingLimit(
    rateWindow(deps.redis, { ...deps.rateLimit, keyPrefix: userRateKeyPrefix(deps.redisPrefix) }),
    deps,
  );
  const smallBody = bodyLimit({
    maxSize: jsonMaxBytes,
    onError: (c) => fail(c, { error: "invalid", message: "body: too large" }),
  });
  const isAdmin = (id: number) => deps.adminIds.includes(id);
  const packs = () =>
    deps.packs.map((p) => ({ id: p.id, credits: p.credits, bonus: p.bonus, stars: p.stars }));
  const words = (language: string) => (key: string, vars?: Record<string, string | number>) =>
    deps.t(language, key, vars);

  app.use("*", callerGuard(deps));

  app.get("/me", async (c) => {
    const caller = c.get("caller");
    const { available, held } = await deps.ledger.account(caller.id);
    return answer(c, contract.meResponse, {
      user: { id: caller.id, firstName: caller.firstName, language: c.get("language") },
      balance: { available, held },
      isAdmin: isAdmin(caller.id),
      packs: packs(),
    });
  });

  app.get("/gallery", async (c) => {
    const query = contract.galleryQuery.safeParse(c.req.query());
    if (!query.success) return invalid(c, query.error);
    if (query.data.before !== undefined && !uuid.safeParse(query.data.before).success)
      return fail(c, { error: "invalid", message: "before: not a cursor of this gallery" });
    const page = await galleryPage(results, c.get("caller").id, c.get("language"), query.data);
    return answer(c, contract.galleryResponse, page);
  });

  app.get("/results/:id", async (c) => {
    const g = uuid.safeParse(c.req.param("id")).success
      ? await ownResult(results, c.get("caller").id, c.req.param("id"))
      : undefined;
    if (!g) return fail(c, { error: "not_found" });
    return answer(c, contract.resultResponse, await resultView(results, g, c.get("language")));
  });

  // "again" keeps the result's inputs for the caller (a Redis key each): bounded like what spends
  app.get("/results/:id/preset", spends, async (c) => {
    const query = contract.presetQuery.safeParse(c.req.query());
    if (!query.success) return invalid(c, query.error);
    const userId = c.get("caller").id;
    const g = uuid.safeParse(c.req.param("id")).success
      ? await ownResult(results, userId, c.req.param("id"))
      : undefined;
    if (!g) return fail(c, { error: "not_found" });
    const preset = await presetOf(
      { generations: deps.generations, prices: deps.prices, inputs },
      g,
      userId,
      query.data,
    );
    if (!preset) return fail(c, { error: "not_available" });
    return answer(c, contract.presetResponse, preset);
  });

  app.post("/results/:id/resend", spends, async (c) => {
    const userId = c.get("caller").id;
    const g = uuid.safeParse(c.req.param("id")).success
      ? await ownResult(results, userId, c.req.param("id"))
      : undefined;
    if (!g) return fail(c, { error: "not_found" });
    const t = words(c.get("language"));
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

  app.post("/quote", smallBody, async (c) => {
    const body = contract.quoteRequestSchema.safeParse(await jsonBody(c));
    if (!body.success) return invalid(c, body.error);
    const userId = c.get("caller").id;
    const priced = await priceOf({ ...inputDeps, prices: deps.prices }, userId, body.data.request);
    if (!priced.ok) return fail(c, { error: "not_found" });
    const { available } = await deps.ledger.account(userId);
    return answer(c, contract.quoteResponse, { credits: priced.credits, available });
  });

  app.post(
    "/uploads",
    spends,
    // a little over Telegram's limit for what a bot downloads: the multipart framing
    bodyLimit({
      maxSize: telegramDownloadMaxBytes + 64 * 1024,
      onError: (c) => fail(c, { error: "invalid", message: "file: too large" }),
    }),
    async (c) => {
      let file: unknown;
      try {
        file = (await c.req.parseBody())[contract.uploadFieldName];
      } catch {
        file = undefined;
      }
      if (!(file instanceof File))
        return fail(c, { error: "invalid", message: `${contract.uploadFieldName}: one file expected` });
      const t = words(c.get("language"));
      const uploaded = await uploadInput(
        { api: deps.api, inputs, links, storageChatId: deps.storageChatId },
        c.get("caller").id,
        file,
        t,
      );
      if (!uploaded.ok) return fail(c, { error: uploaded.error, message: uploaded.message });
      return answer(c, contract.uploadResponse, uploaded.answer);
    },
  );

  app.post("/generate", spends, smallBody, async (c) => {
    const body = contract.generateRequestSchema.safeParse(await jsonBody(c));
    if (!body.success) return invalid(c, body.error);
    const userId = c.get("caller").id;
    const composed = await composeParams(inputDeps, userId, body.data.request);
    if (!composed.ok)
      return fail(
        c,
        composed.error === "invalid"
          ? { error: "invalid", message: composed.message }
          : { error: "not_found" },
      );
    const language = c.get("language");
    // the chat's confirm, with the user's private chat as where the status and the result go
    const r = await deps.generations.create({
      key: `app-${userId}-${body.data.key}`,
      userId,
      language,
      chat: { chatId: userId },
      params: composed.params,
      ...(body.data.expectedPrice !== undefined ? { expectedPrice: body.data.expectedPrice } : {}),
    });
    if (r.ok) {
      return answer(c, contract.generateResponse, {
        id: r.generation.id,
        created: r.created,
        price: r.generation.price,
      });
    }
    const t = words(language);
    switch (r.reason) {
      case "insufficient":
        return fail(c, {
          error: "insufficient",
          message: t("gen-insufficient", { price: r.price, available: r.available, missing: r.missing }),
          price: r.price,
          available: r.available,
          missing: r.missing,
        });
      case "price_changed":
        return fail(c, {
          error: "price_changed",
          message: t("cv-price-changed", { price: r.price }),
          price: r.price,
        });
      case "no_price":
        return fail(c, { error: "no_price", message: t("cv-no-price") });
      case "invalid":
        return fail(c, { error: "invalid", message: r.message });
      case "banned":
        return fail(c, { error: "banned", message: t("banned-notice") });
    }
  });

  app.get("/credits", async (c) => {
    const userId = c.get("caller").id;
    const [{ available, held }, entries] = await Promise.all([
      deps.ledger.account(userId),
      recentEntries(deps.db, userId, latestEntries),
    ]);
    return answer(c, contract.creditsResponse, {
      balance: { available, held },
      entries: entries.map((e) => ({ ...e, at: e.at.toISOString() })),
      packs: packs(),
    });
  });

  app.post("/buy", spends, smallBody, async (c) => {
    const body = contract.buyRequestSchema.safeParse(await jsonBody(c));
    if (!body.success) return invalid(c, body.error);
    const t = words(c.get("language"));
    const pack = deps.packs.find((p) => p.id === body.data.packId);
    if (!pack) return fail(c, { error: "not_found", message: t("buy-pack-gone") });
    const invoice = packInvoice(pack, c.get("caller").id, t, deps.sandbox);
    try {
      const invoiceLink = await deps.api.createInvoiceLink(
        invoice.title,
        invoice.description,
        invoice.payload,
        "",
        invoice.currency,
        invoice.prices,
      );
      return answer(c, contract.buyResponse, { invoiceLink });
    } catch (err) {
      deps.logger.warn({ err }, "mini app: no invoice link");
      return fail(c, { error: "unavailable", message: t("error-generic") });
    }
  });

  // the admins' part answers others as if it did not exist
  app.use("/admin/*", async (c, next) =>
    isAdmin(c.get("caller").id) ? next() : fail(c, { error: "not_found" }),
  );

  app.get("/admin/stats", async (c) => {
    const query = contract.statsQuery.safeParse(c.req.query());
    if (!query.success) return invalid(c, query.error);
    return answer(c, contract.statsResponse, await statsByDay(deps.db, query.data.days));
  });

  app.get("/admin/broadcasts", async (c) => {
    const latest = await deps.broadcasts.latest(latestBroadcasts);
    const items = await Promise.all(
      latest.map(async (b) => ({
        id: b.id,
        createdAt: b.createdAt.toISOString(),
        state: b.state,
        text: b.text,
        counts: await deps.broadcasts.counts(b.id),
      })),
    );
    return answer(c, contract.broadcastsResponse, { items });
  });

  app.notFound((c) => fail(c, { error: "not_found" }));
  app.onError((err, c) => {
    deps.logger.error({ err, path: c.req.path }, "mini app: request failed");
    return c.json({ error: "unavailable" }, 500);
  });
  return app;
}
