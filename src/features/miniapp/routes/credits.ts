import { Hono } from "hono";
import type { Ledger } from "../../../domain/credits/ledger";
import { recentEntries } from "../../../domain/credits/recent-entries";
import { entryText } from "../../../domain/generations/credit-entry-text";
import type { CreditPack } from "../../../platform/config/credit-packs";
import type { Plan } from "../../../platform/config/plans";
import type { Database } from "../../../platform/db/client";
import type { TranslateFor } from "../../../platform/i18n/i18n";
import { activePlanLine, type PlanSubscriptions, planSummary } from "../../payments";
import { answer } from "../answers";
import { chatWords } from "../chat-words";
import * as contract from "../contract";
import type { AppEnv } from "../guard";

export interface CreditRoutesDeps {
  db: Database;
  ledger: Pick<Ledger, "account">;
  packs: readonly CreditPack[];
  plans: readonly Plan[];
  subscriptions: Pick<PlanSubscriptions, "active">;
  adminIds: readonly number[];
  t: TranslateFor;
}

const latestEntries = 20;

/** The caller and their credits: /me (who they are, the balance, the packs, the chat's words) and /credits (the balance, its latest entries, the plans and the caller's). */
export function creditRoutes(deps: CreditRoutesDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const packs = () =>
    deps.packs.map((p) => ({ id: p.id, credits: p.credits, bonus: p.bonus, stars: p.stars }));

  app.get("/me", async (c) => {
    const caller = c.get("caller");
    const language = c.get("language");
    const { available, held } = await deps.ledger.account(caller.id);
    return answer(c, contract.meResponse, {
      user: { id: caller.id, firstName: caller.firstName, language },
      balance: { available, held },
      isAdmin: deps.adminIds.includes(caller.id),
      packs: packs(),
      words: chatWords(deps.t, language),
    });
  });

  app.get("/credits", async (c) => {
    const userId = c.get("caller").id;
    const language = c.get("language");
    const [{ available, held }, entries, plan] = await Promise.all([
      deps.ledger.account(userId),
      recentEntries(deps.db, userId, latestEntries),
      deps.subscriptions.active(userId),
    ]);
    const t = (key: string, vars?: Record<string, string | number>) => deps.t(language, key, vars);
    return answer(c, contract.creditsResponse, {
      balance: { available, held },
      entries: entries.map((e) => ({
        ...e,
        at: e.at.toISOString(),
        text: entryText(t, e),
      })),
      packs: packs(),
      plans: deps.plans.map((p) => ({ ...p, text: planSummary(t, p) })),
      plan: plan
        ? {
            id: plan.planId,
            until: plan.until.toISOString(),
            renews: plan.renews,
            text: activePlanLine(t, language, plan),
          }
        : null,
    });
  });

  return app;
}
