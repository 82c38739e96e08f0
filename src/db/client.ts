import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { lockDataDir } from "./data-dir-lock";
import * as schema from "./schema";

export type Schema = typeof schema;
/** One type for both drivers: code never knows whether it runs on Postgres or PGlite. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: "postgres" | "pglite";
  url?: string;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: "postgres"; url: string; max?: number }
  | { kind: "pglite"; dataDir?: string };

export function openDatabase(target: DatabaseTarget): DatabaseHandle {
  if (target.kind === "postgres") {
    const client = postgres(target.url, {
      max: target.max ?? 10,
      onnotice: () => {},
      connection: { application_name: "media-studio-bot" },
    });
    const db = drizzlePostgres(client, { schema }) as unknown as Database;
    return { db, kind: "postgres", url: target.url, close: () => client.end({ timeout: 5 }) };
  }
  let release = () => {};
  if (target.dataDir) {
    mkdirSync(target.dataDir, { recursive: true });
    release = lockDataDir(target.dataDir);
  }
  const client = new PGlite(target.dataDir);
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    close: async () => {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}
