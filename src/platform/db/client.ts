import { mkdirSync } from "node:fs";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { lockDataDir } from "./data-dir-lock";
import { preparingClient } from "./prepared-statements";
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
  /** LISTEN on a channel, on a connection of its own (Postgres only: PGlite has one process); resolves to the unlisten */
  listen?: Listen;
  close(): Promise<void>;
}

export type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;

export type DatabaseTarget =
  | { kind: "postgres"; url: string; max?: number }
  | { kind: "pglite"; dataDir?: string };

/**
 * The postgres.js options of the bot's pool. `max_pipeline` is unbounded because
 * postgres.js 3.4.9 reserves a transaction's connection only when its BEGIN does
 * not fill that connection's pipeline (porsager/postgres#1189, #823; fix #1218
 * unreleased): at the boundary the BEGIN goes out unreserved, the transaction
 * fails with UNSAFE_TRANSACTION and other queries may run inside it. Prepared
 * statements pipeline, so a busy pool reaches the boundary (1,000 concurrent
 * holds did). Queries still spread over the busy connections in turn.
 */
export function poolOptions(max = 10) {
  return {
    max,
    max_pipeline: Number.POSITIVE_INFINITY,
    onnotice: () => {},
    connection: { application_name: "media-studio-bot" },
  };
}

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === "postgres") {
    const client = postgres(target.url, poolOptions(target.max));
    const db = drizzlePostgres(preparingClient(client), { schema }) as unknown as Database;
    const listen: Listen = async (channel, onPayload) => {
      const { unlisten } = await client.listen(channel, onPayload);
      return unlisten;
    };
    return { db, kind: "postgres", url: target.url, listen, close: () => client.end({ timeout: 5 }) };
  }
  let release = () => {};
  if (target.dataDir) {
    mkdirSync(target.dataDir, { recursive: true });
    release = lockDataDir(target.dataDir);
  }
  // the embedded database (sandbox, tests) is loaded only when asked for: production never pays for it
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle: drizzlePglite } = await import("drizzle-orm/pglite");
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
