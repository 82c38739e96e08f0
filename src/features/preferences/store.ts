import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client";
import { userPreferences } from "../../platform/db/schema";
import type { Operation } from "../../platform/media-service/catalog";

/** The stored options of one operation, as saved: callers read them through their own schema and the catalog. */
export type StoredOptions = Record<string, unknown>;

export interface Preferences {
  /** the user's last confirmed options for `operation`, or undefined when none were kept */
  get(userId: number, operation: Operation): Promise<StoredOptions | undefined>;
  /** every operation's remembered options */
  all(userId: number): Promise<Partial<Record<Operation, StoredOptions>>>;
  /** replaces what is remembered for `operation` */
  remember(userId: number, operation: Operation, options: StoredOptions): Promise<void>;
  /** forgets one operation's options, or all of them */
  forget(userId: number, operation?: Operation): Promise<void>;
}

export function createPreferences(db: Database): Preferences {
  return {
    async get(userId, operation) {
      const [row] = await db
        .select({ options: userPreferences.options })
        .from(userPreferences)
        .where(and(eq(userPreferences.userId, userId), eq(userPreferences.operation, operation)));
      return row?.options;
    },
    async all(userId) {
      const rows = await db
        .select({ operation: userPreferences.operation, options: userPreferences.options })
        .from(userPreferences)
        .where(eq(userPreferences.userId, userId));
      return Object.fromEntries(rows.map((r) => [r.operation, r.options]));
    },
    async remember(userId, operation, options) {
      await db
        .insert(userPreferences)
        .values({ userId, operation, options })
        .onConflictDoUpdate({
          target: [userPreferences.userId, userPreferences.operation],
          set: { options, updatedAt: sql`now()` },
        });
    },
    async forget(userId, operation) {
      await db
        .delete(userPreferences)
        .where(
          operation === undefined
            ? eq(userPreferences.userId, userId)
            : and(eq(userPreferences.userId, userId), eq(userPreferences.operation, operation)),
        );
    },
  };
}
