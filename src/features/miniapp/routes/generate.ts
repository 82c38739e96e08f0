import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import type { Ledger } from "../../../domain/credits/ledger";
import { choicePrices } from "../../../domain/generations/choice-prices";
import type { GenerationCreation } from "../../../domain/generations/create";
import { telegramDownloadMaxBytes } from "../../../domain/generations/inputs";
import type { GenerationReads } from "../../../domain/generations/reads";
import { type Refusal, refusalText } from "../../../domain/generations/refusal";
import type { Prices } from "../../../domain/pricing/prices";
import type { Translate, TranslateFor } from "../../../platform/i18n/i18n";
import type { PlanSubscriptions } from "../../payments";
import { answer, fail, invalid, jsonBody } from "../answers";
import { composeParams, priceOf } from "../compose";
import * as contract from "../contract";
import { draftRequestKey, issueDraft } from "../drafts";
import { type AppEnv, callerWords, type RouteGuards } from "../guard";
import type { KeptInputs } from "../inputs";
import type { LinkSigner } from "../media-links";
import { composerStart, type RememberedDeps, rememberConfirmed } from "../remembered";
import { requestStatus } from "../request-status";
import { type UploadDeps, uploadInput } from "../uploads";

export interface GenerateRoutesDeps extends Omit<UploadDeps, "inputs">, Omit<RememberedDeps, "dubRules"> {
  inputs: Pick<KeptInputs, "find" | "keep">;
  generations: Pick<GenerationCreation, "create"> & Pick<GenerationReads, "get">;
  prices: Prices;
  /** the percent off the caller's requests (their plan's) */
  subscriptions: Pick<PlanSubscriptions, "discountOf">;
  ledger: Pick<Ledger, "account">;
  t: TranslateFor;
  guards: RouteGuards;
  /** its secret signs the drafts */
  signer: Pick<LinkSigner, "signingSecret">;
}

const uuid = z.uuid();

/** A request the generations refused: the chat's words for why, and the figures the page shows beside them. */
function refused(c: Context, r: Refusal, t: Translate): Response {
  // like the API's other 400s: the problem in its own words, not the chat's sentence around it
  if (r.reason === "invalid") return fail(c, { error: "invalid", message: r.message });
  const message = refusalText(t, r);
  switch (r.reason) {
    case "insufficient":
      return fail(c, {
        error: "insufficient",
        message,
        price: r.price,
        available: r.available,
        missing: r.missing,
      });
    case "price_changed":
      return fail(c, { error: "price_changed", message, price: r.price });
    case "no_price":
    case "banned":
    case "refused_prompt":
      return fail(c, { error: r.reason, message });
  }
}

/**
 * Making something: where the composer starts with its draft (/composer), a
 * new draft (/drafts), its price and its choices' prices (/quote), a file from
 * the device as an input (/uploads), the request of a draft (/generate) and
 * where that request is (/generations/:id).
 */
export function generateRoutes(deps: GenerateRoutesDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { spends, smallBody } = deps.guards;

  const secret = deps.signer.signingSecret;

  app.get("/composer", async (c) => {
    const userId = c.get("caller").id;
    const start = await composerStart(deps, userId, c.get("language"));
    return answer(c, contract.composerResponse, { ...start, draft: issueDraft(secret, userId) });
  });

  app.post("/drafts", (c) =>
    answer(c, contract.draftResponse, { draft: issueDraft(secret, c.get("caller").id) }),
  );

  app.post("/quote", smallBody, async (c) => {
    const body = contract.quoteRequestSchema.safeParse(await jsonBody(c));
    if (!body.success) return invalid(c, body.error);
    const userId = c.get("caller").id;
    const { request } = body.data;
    const [{ available, held }, discount] = await Promise.all([
      deps.ledger.account(userId),
      deps.subscriptions.discountOf(userId),
    ]);
    // the caller's prices: less their plan's discount, as the chat's and as /generate holds
    const prices = deps.prices.withDiscount(discount);
    const priced = await priceOf(deps, prices, userId, request);
    if (!priced.ok) return fail(c, { error: "not_found" });
    return answer(c, contract.quoteResponse, {
      credits: priced.credits,
      upTo: priced.upTo,
      choices: request.operation === "dub" ? {} : choicePrices(prices, request),
      balance: { available, held },
    });
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
      const uploaded = await uploadInput(deps, c.get("caller").id, file, callerWords(c, deps.t));
      if (!uploaded.ok) return fail(c, { error: uploaded.error, message: uploaded.message });
      return answer(c, contract.uploadResponse, uploaded.answer);
    },
  );

  app.post("/generate", spends, smallBody, async (c) => {
    const body = contract.generateRequestSchema.safeParse(await jsonBody(c));
    if (!body.success) return invalid(c, body.error);
    const userId = c.get("caller").id;
    // the draft, not the press, is what spends once: its key is the generation's
    const key = draftRequestKey(secret, userId, body.data.draft);
    if (!key)
      return fail(c, {
        error: "draft_refused",
        message: "draft: not issued to this user; ask POST /drafts for one",
      });
    const composed = await composeParams(deps, userId, body.data.request);
    if (!composed.ok)
      return fail(
        c,
        composed.error === "invalid"
          ? { error: "invalid", message: composed.message }
          : { error: "not_found" },
      );
    // the chat's confirm, with the user's private chat as where the status and the result go
    const r = await deps.generations.create({
      key,
      userId,
      language: c.get("language"),
      chat: { chatId: userId },
      params: composed.params,
      ...(body.data.expectedPrice !== undefined ? { expectedPrice: body.data.expectedPrice } : {}),
    });
    if (!r.ok) return refused(c, r, callerWords(c, deps.t));
    if (r.created) await rememberConfirmed(deps, userId, composed.params);
    const { available, held } = await deps.ledger.account(userId);
    return answer(c, contract.generateResponse, {
      id: r.generation.id,
      created: r.created,
      price: r.generation.price,
      balance: { available, held },
    });
  });

  app.get("/generations/:id", async (c) => {
    const userId = c.get("caller").id;
    const id = c.req.param("id");
    const g = uuid.safeParse(id).success ? await deps.generations.get(id) : undefined;
    // another user's request is as unknown as one that does not exist
    if (!g || g.userId !== userId) return fail(c, { error: "not_found" });
    const { available, held } = await deps.ledger.account(userId);
    return answer(c, contract.requestStatusResponse, {
      ...requestStatus(g, deps.t),
      balance: { available, held },
    });
  });

  return app;
}
