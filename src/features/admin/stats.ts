import { sql } from "drizzle-orm";
import { creditTotals } from "../../domain/credits/totals";
import { billedByService } from "../../domain/generations/billed-by-service";
import type { BelowCost } from "../../domain/pricing/cost-check";
import type { Database } from "../../platform/db/client";
import {
  type GenerationState,
  generationStates,
  generations,
  orphanTasks,
  type PromoCode,
  users,
} from "../../platform/db/schema";
import type { Translate } from "../../platform/i18n/i18n";
import { type Operation, operations } from "../../platform/media-service/catalog";
import { promoLines } from "../promo";

export const periods = ["today", "week", "all"] as const;
export type Period = (typeof periods)[number];

export interface GenerationCount {
  operation: Operation;
  state: GenerationState;
  counts: Record<Period, number>;
}

export interface Stats {
  users: {
    total: number;
    active1: number;
    active7: number;
    active30: number;
    blocked: number;
    banned: number;
  };
  generations: GenerationCount[];
  credits: {
    granted: number;
    sold: number;
    adjusted: number;
    held: number;
    charged: number;
    refunded: number;
  };
  service: { spent: number; orphanCredits: number; orphanTasks: number };
  /** charged − refunded − service credits spent (see `stats-margin-note`) */
  margin: number;
}

const n = (expr: ReturnType<typeof sql>) => sql<number>`coalesce(${expr}, 0)`.mapWith(Number);
const since = (days: number) => sql`now() - make_interval(days => ${days})`;
/** Midnight UTC: "today" is the same day for every admin, whatever the server's time zone. */
const todayUtc = sql`date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`;

/** The figures of /stats, read in one repeatable-read snapshot so they agree with each other. */
export async function collectStats(db: Database): Promise<Stats> {
  return db.transaction(
    async (tx) => {
      const [u] = await tx
        .select({
          total: n(sql`count(*)`),
          active1: n(sql`count(*) filter (where ${users.lastSeenAt} >= ${since(1)})`),
          active7: n(sql`count(*) filter (where ${users.lastSeenAt} >= ${since(7)})`),
          active30: n(sql`count(*) filter (where ${users.lastSeenAt} >= ${since(30)})`),
          blocked: n(sql`count(*) filter (where ${users.blockedAt} is not null)`),
          banned: n(sql`count(*) filter (where ${users.bannedAt} is not null)`),
        })
        .from(users);
      const g = await tx
        .select({
          operation: generations.operation,
          state: generations.state,
          today: n(sql`count(*) filter (where ${generations.createdAt} >= ${todayUtc})`),
          week: n(sql`count(*) filter (where ${generations.createdAt} >= ${since(7)})`),
          all: n(sql`count(*)`),
        })
        .from(generations)
        .groupBy(generations.operation, generations.state);
      const [spent] = await tx
        .select({ spent: n(sql`sum(${generations.serviceCredits})`) })
        .from(generations)
        .where(billedByService);
      const [orphans] = await tx
        .select({ credits: n(sql`sum(${orphanTasks.serviceCredits})`), count: n(sql`count(*)`) })
        .from(orphanTasks);

      const credits = await creditTotals(tx);
      const service = {
        spent: spent?.spent ?? 0,
        orphanCredits: orphans?.credits ?? 0,
        orphanTasks: orphans?.count ?? 0,
      };
      return {
        users: u ?? { total: 0, active1: 0, active7: 0, active30: 0, blocked: 0, banned: 0 },
        generations: g
          .filter((row): row is typeof row & { operation: Operation } =>
            (operations as readonly string[]).includes(row.operation),
          )
          .map((row) => ({
            operation: row.operation,
            state: row.state,
            counts: { today: row.today, week: row.week, all: row.all },
          })),
        credits,
        service,
        margin: credits.charged - credits.refunded - service.spent - service.orphanCredits,
      };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** One line per operation with generations in the period: its total, then each state with its count. */
function generationLines(t: Translate, rows: GenerationCount[], period: Period): string[] {
  const lines: string[] = [];
  for (const operation of operations) {
    const mine = rows.filter((r) => r.operation === operation && r.counts[period] > 0);
    if (mine.length === 0) continue;
    const total = mine.reduce((sum, r) => sum + r.counts[period], 0);
    const states = generationStates
      .flatMap((state) => mine.filter((r) => r.state === state))
      .map((r) => t("stats-state-count", { state: t(`stats-state-${r.state}`), count: r.counts[period] }));
    lines.push(
      t("stats-operation-line", { operation: t(`op-${operation}`), total, states: states.join(" · ") }),
    );
  }
  return lines.length > 0 ? lines : [t("stats-none")];
}

/** The ⚠️ section of /stats: each price below the service's cost, by name. */
function belowCostSection(t: Translate, below: readonly BelowCost[]): string[] {
  if (below.length === 0) return [];
  const lines = below.map((b) =>
    t("stats-below-cost-line", { choice: b.choice, price: b.price, cost: b.cost }),
  );
  return [`${t("stats-below-cost-title", { count: below.length })}\n${lines.join("\n")}`];
}

/** /stats: the figures, the newest promo codes (`promoCodes`, each with its redemptions), the prompts refused and prices below cost. */
export function formatStats(
  t: Translate,
  s: Stats,
  belowCost: readonly BelowCost[],
  promoCodes: readonly PromoCode[] = [],
  refused: { today: number; week: number } = { today: 0, week: 0 },
): string {
  const parts = [t("stats-title"), t("stats-users", { ...s.users })];
  for (const period of periods) {
    parts.push(
      `${t(`stats-generations-${period}`)}\n${generationLines(t, s.generations, period).join("\n")}`,
    );
  }
  parts.push(t("stats-credits", { ...s.credits }));
  parts.push(t("stats-service", { ...s.service }));
  const percent = s.credits.charged > 0 ? Math.round((s.margin / s.credits.charged) * 100) : 0;
  parts.push(t("stats-margin", { margin: s.margin, percent }));
  parts.push(t("stats-margin-note"));
  parts.push(t("stats-refused-prompts", refused));
  if (promoCodes.length > 0) parts.push([t("stats-promo-title"), ...promoLines(t, promoCodes)].join("\n"));
  parts.push(...belowCostSection(t, belowCost));
  return parts.join("\n\n");
}
