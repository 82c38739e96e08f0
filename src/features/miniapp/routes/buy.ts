import type { Api } from "grammy";
import { Hono } from "hono";
import type { CreditPack } from "../../../platform/config/credit-packs";
import type { Plan } from "../../../platform/config/plans";
import type { TranslateFor } from "../../../platform/i18n/i18n";
import type { Logger } from "../../../platform/lib/logger";
import { invoiceLink, packInvoice, planInvoice } from "../../payments";
import { answer, fail, invalid, jsonBody } from "../answers";
import * as contract from "../contract";
import { type AppEnv, callerWords, type RouteGuards } from "../guard";

export interface BuyRoutesDeps {
  packs: readonly CreditPack[];
  plans: readonly Plan[];
  /** test payments: invoices say so, as /buy's */
  sandbox: boolean;
  api: Pick<Api, "createInvoiceLink">;
  t: TranslateFor;
  logger: Pick<Logger, "warn">;
  guards: RouteGuards;
}

/** Buying a pack or subscribing to a plan: the link of the same Stars invoice as /buy's or /plans', for the page to open. */
export function buyRoutes(deps: BuyRoutesDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/buy", deps.guards.spends, deps.guards.smallBody, async (c) => {
    const body = contract.buyRequestSchema.safeParse(await jsonBody(c));
    if (!body.success) return invalid(c, body.error);
    const t = callerWords(c, deps.t);
    const wanted = body.data;
    const caller = c.get("caller").id;
    const pack = "packId" in wanted ? deps.packs.find((p) => p.id === wanted.packId) : undefined;
    const plan = "planId" in wanted ? deps.plans.find((p) => p.id === wanted.planId) : undefined;
    const invoice = pack
      ? packInvoice(pack, caller, t, deps.sandbox)
      : plan && planInvoice(plan, caller, t, deps.sandbox);
    if (!invoice) {
      return fail(c, { error: "not_found", message: t("packId" in wanted ? "buy-pack-gone" : "plan-gone") });
    }
    try {
      const link = await invoiceLink(deps.api, invoice);
      return answer(c, contract.buyResponse, { invoiceLink: link });
    } catch (err) {
      deps.logger.warn({ err }, "mini app: no invoice link");
      return fail(c, { error: "unavailable", message: t("error-generic") });
    }
  });

  return app;
}
