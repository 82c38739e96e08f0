import { Hono } from "hono";
import type { Ledger } from "../../../domain/credits/ledger";
import { recentEntries } from "../../../domain/credits/recent-entries";
import { entryText } from "../../../domain/generations/credit-entry-text";
import type { CreditPack } from "../../../platform/config/credit-packs";
import type { Database } from "../../../platform/db/client";
import type { TranslateFor } from "../../../platform/i18n/i18n";
import { answer } from "../answers";
import { chatWords } from "../chat-words";
import * as contract from "../contract";
import type { AppEnv } from "../guard";

export interface CreditRoutesDeps {
  db: Database;
  ledger: Pick<Ledger, "account">;
  packs: readonly CreditPack[];
  adminIds: readonly number[];
  t: TranslateFor;
}

const latestEntries = 20;

/** The caller and their credits: /me (who they are, the balance, the packs, the chat's words) and /credits (the balance and its latest entries). */
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
    const [{ available, held }, entries] = await Promise.all([
      deps.ledger.account(userId),
      recentEntries(deps.db, userId, latestEntries),
    ]);
    return answer(c, contract.creditsResponse, {
      balance: { available, held },
      entries: entries.map((e) => ({
        ...e,
        at: e.at.toISOString(),
        text: entryText((key, vars) => deps.t(language, key, vars), e),
      })),
      packs: packs(),
    });
  });

  return app;
}
