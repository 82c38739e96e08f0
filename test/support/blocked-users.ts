import { isNotNull } from "drizzle-orm";
import type { Database } from "../../src/platform/db/client";
import { users } from "../../src/platform/db/schema";

/** The ids of the users Postgres has marked as having blocked the bot, in order. */
export async function blockedUserIds(db: Database): Promise<number[]> {
  const rows = await db.select({ id: users.id }).from(users).where(isNotNull(users.blockedAt));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}
