import type { Api } from "grammy";
import { Hono } from "hono";
import type { CreditPack } from "../../../platform/config/credit-packs";
import type { TranslateFor } from "../../../platform/i18n/i18n";
import type { Logger } from "../../../platform/lib/logger";
import { packInvoice } from "../../payments";
import { answer, fail, invalid, jsonBody } from "../answers";
import * as contract from "../contract";
import { type AppEnv, callerWords, type RouteGuards } from "../guard";

export interface BuyRoutesDeps {
  packs: readonly CreditPack[];
  /** test payments: invoices say so, as /buy's */
  sandbox: boolean;
  api: Pick<Api, "createInvoiceLink">;
  t: TranslateFor;
  logger: Pick<Logger, "warn">;
  guards: RouteGuards;
}

/** Buying a pack: the link of the same Stars invoice /buy sends, for the page to open. */
export function buyRoutes(deps: BuyRoutesDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/buy", deps.guards.spends, deps.guards.smallBody, async (c) => {
    const body = contract.buyRequestSchema.safeParse(await jsonBody(c));
    if (!body.success) return invalid(c, body.error);
    const t = callerWords(c, deps.t);
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

  return app;
}
