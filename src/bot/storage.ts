import { eq, sql } from "drizzle-orm";
import type { StorageAdapter } from "grammy";
import type { z } from "zod";
import type { Database } from "../platform/db/client";
import { kvStore } from "../platform/db/schema";

/**
 * A grammY StorageAdapter over the `kv_store` table (today the conversations'
 * state). Keys are stored as `prefix + key`, so several users of the table
 * never collide. Works the same on Postgres and PGlite.
 *
 * Values are JSON (jsonb): pass a zod `schema` to check what comes back; a
 * stored value that no longer parses reads as missing, like a fresh start.
 */
export function createKvStorage<T>(
  db: Database,
  prefix: string,
  schema?: z.ZodType<T>,
): StorageAdapter<T> & { decode(json: string): T | undefined } {
  const stored = (key: string) => `${prefix}${key}`;

  function decode(value: unknown): T | undefined {
    if (!schema) return value as T;
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  }

  return {
    /** a value read elsewhere as text (`value::text`), checked like one read here */
    decode: (json: string) => decode(JSON.parse(json)),
    async read(key) {
      // Read as text and parse here: the jsonb column mapping would parse a stored
      // JSON string a second time ('"{}"' would come back as an object).
      const [row] = await db
        .select({ json: sql<string>`${kvStore.value}::text` })
        .from(kvStore)
        .where(eq(kvStore.key, stored(key)));
      return row ? decode(JSON.parse(row.json)) : undefined;
    },
    async write(key, value) {
      await db
        .insert(kvStore)
        .values({ key: stored(key), value })
        .onConflictDoUpdate({ target: kvStore.key, set: { value, updatedAt: sql`now()` } });
    },
    async delete(key) {
      await db.delete(kvStore).where(eq(kvStore.key, stored(key)));
    },
    async has(key) {
      const [row] = await db
        .select({ key: kvStore.key })
        .from(kvStore)
        .where(eq(kvStore.key, stored(key)));
      return row !== undefined;
    },
    async *readAllKeys() {
      const rows = await db
        .select({ key: kvStore.key })
        .from(kvStore)
        .where(sql`starts_with(${kvStore.key}, ${prefix})`);
      for (const row of rows) yield row.key.slice(prefix.length);
    },
  };
}
