import { z } from "zod";

const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL");

export type ConfiguredDatabase = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

/** Postgres when a URL is given, else the embedded PGlite under the data directory. */
export function databaseTarget(databaseUrl: string | undefined, dataDir: string): ConfiguredDatabase {
  if (databaseUrl) return { kind: "postgres", url: databaseUrl };
  return { kind: "pglite", dataDir: `${dataDir.replace(/\/+$/, "")}/pglite` };
}

/**
 * The database of a command-line tool (migrate, audit): only DATABASE_URL (or
 * DATA_DIR for the embedded one) is read, never the rest of the bot's config.
 */
export function databaseTargetFromEnv(env: NodeJS.ProcessEnv): ConfiguredDatabase {
  const url = env.DATABASE_URL?.trim() || undefined;
  if (url !== undefined) {
    const parsed = postgresUrl.safeParse(url);
    if (!parsed.success) throw new Error(`DATABASE_URL ${parsed.error.issues[0]?.message ?? "is invalid"}`);
  }
  return databaseTarget(url, env.DATA_DIR?.trim() || "./data");
}
