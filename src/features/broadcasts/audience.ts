import { and, eq, gte, isNull, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client";
import { type BroadcastAudience, users } from "../../platform/db/schema";
import { languages } from "../../platform/i18n/language";

/** The audiences an admin picks from, in button order. */
export const audienceChoices: readonly BroadcastAudience[] = [
  { kind: "everyone" },
  { kind: "active", days: 7 },
  { kind: "active", days: 30 },
  ...languages.map((language) => ({ kind: "language" as const, language })),
];

/** Users a broadcast may reach: not known to have blocked the bot, not banned. */
export function audienceFilter(audience: BroadcastAudience): SQL | undefined {
  const reachable = and(isNull(users.blockedAt), isNull(users.bannedAt));
  switch (audience.kind) {
    case "everyone":
      return reachable;
    case "active":
      return and(reachable, gte(users.lastSeenAt, sql`now() - make_interval(days => ${audience.days})`));
    case "language":
      return and(reachable, eq(users.language, audience.language));
  }
}

export async function countAudience(db: Database, audience: BroadcastAudience): Promise<number> {
  return db.$count(users, audienceFilter(audience));
}

/** A compact, stable name for an audience (callback data, logs). */
export function audienceCode(audience: BroadcastAudience): string {
  switch (audience.kind) {
    case "everyone":
      return "all";
    case "active":
      return `d${audience.days}`;
    case "language":
      return `l${audience.language}`;
  }
}

export function audienceFromCode(code: string): BroadcastAudience | undefined {
  return audienceChoices.find((a) => audienceCode(a) === code);
}
