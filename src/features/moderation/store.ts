import { asc, eq, gte, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client";
import { promptRefusals, refusedPromptRules } from "../../platform/db/schema";
import { promptScreen, ruleOf } from "../../platform/lib/refused-prompts";

export interface PromptRulesDeps {
  db: Database;
  /** REFUSED_PROMPTS: the operator's own rules, which /moderation lists but cannot remove */
  settingRules: readonly string[];
}

/** A rule as /moderation lists it: where it comes from. */
export interface ListedRule {
  rule: string;
  from: "settings" | "admin";
}

/**
 * The refused words and patterns (the settings' and the admins'), and the
 * refusals they made. The rules are read at each check: a rule an admin adds
 * holds at once in every process.
 */
export function createPromptRules(deps: PromptRulesDeps) {
  const { db } = deps;
  const fromSettings = deps.settingRules.flatMap((r) => ruleOf(r) ?? []);

  async function list(): Promise<ListedRule[]> {
    const added = await db
      .select({ rule: refusedPromptRules.rule })
      .from(refusedPromptRules)
      .orderBy(asc(refusedPromptRules.createdAt));
    return [
      ...fromSettings.map((rule): ListedRule => ({ rule, from: "settings" })),
      ...added
        .filter((a) => !fromSettings.includes(a.rule))
        .map((a): ListedRule => ({ rule: a.rule, from: "admin" })),
    ];
  }

  return {
    list,

    /** Adds a rule (kept as ruleOf reads it); "invalid" when it is no rule, "exists" when it is one already. */
    async add(text: string, by: number): Promise<{ outcome: "added" | "exists" | "invalid"; rule?: string }> {
      const rule = ruleOf(text);
      if (!rule) return { outcome: "invalid" };
      if (fromSettings.includes(rule)) return { outcome: "exists", rule };
      const [row] = await db
        .insert(refusedPromptRules)
        .values({ rule, createdBy: by })
        .onConflictDoNothing()
        .returning({ rule: refusedPromptRules.rule });
      return { outcome: row ? "added" : "exists", rule };
    },

    /** Removes an admin's rule; "settings" for one of REFUSED_PROMPTS (changed only there). */
    async remove(text: string): Promise<{ outcome: "removed" | "missing" | "settings"; rule?: string }> {
      const rule = ruleOf(text);
      if (!rule) return { outcome: "missing" };
      if (fromSettings.includes(rule)) return { outcome: "settings", rule };
      const rows = await db
        .delete(refusedPromptRules)
        .where(eq(refusedPromptRules.rule, rule))
        .returning({ rule: refusedPromptRules.rule });
      return { outcome: rows.length > 0 ? "removed" : "missing", rule };
    },

    /**
     * The rule `prompt` matches, or undefined. A match is recorded (who, which
     * operation, which rule: never the prompt) for /stats.
     */
    async screen(userId: number, operation: string, prompt: string): Promise<string | undefined> {
      const rules = (await list()).map((r) => r.rule);
      const rule = promptScreen(rules)(prompt);
      if (rule) await db.insert(promptRefusals).values({ userId, operation, rule });
      return rule;
    },
  };
}
export type PromptRules = ReturnType<typeof createPromptRules>;

/** Requests refused for their prompt: since midnight UTC and in the last 7 days, as /stats counts requests. */
export async function refusalCounts(db: Database): Promise<{ today: number; week: number }> {
  const [row] = await db
    .select({
      today:
        sql<number>`count(*) filter (where ${promptRefusals.createdAt} >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC')`.mapWith(
          Number,
        ),
      week: sql<number>`count(*)`.mapWith(Number),
    })
    .from(promptRefusals)
    .where(gte(promptRefusals.createdAt, sql`now() - make_interval(days => 7)`));
  return { today: row?.today ?? 0, week: row?.week ?? 0 };
}
