import type { PgliteDatabase } from "drizzle-orm/pglite";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { projectPath } from "../lib/project-root";
import type { DatabaseHandle } from "./client";

const migrationsFolder = projectPath("drizzle");

/**
 * Applies drizzle/ migrations. On Postgres it runs on one dedicated connection
 * holding an advisory lock, so web and worker processes starting together do not race.
 */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === "pglite") {
    const { migrate: migratePglite } = await import("drizzle-orm/pglite/migrator");
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  if (!handle.url) throw new Error("a Postgres handle needs its URL to migrate");
  const client = postgres(handle.url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(772211)`;
    await migratePostgres(drizzle(client), { migrationsFolder });
    await client`select pg_advisory_unlock(772211)`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
