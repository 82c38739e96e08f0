import { z } from "zod";

const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL");

export type ConfiguredDatabase =
  | { kind: "postgres"; url: string; max?: number }
  | { kind: "pglite"; dataDir: string };

/**
 * Postgres connections per process when DATABASE_POOL_SIZE is unset. A web
 * process's queries are short and many (updates' reads, the journal's steps):
 * with fewer connections more of them share a write and a backend's wake-up
 * (postgres.js pipelines on busy connections), which cut its CPU and Postgres's
 * per update by ~10% in bench/updates (4 against 10). Workers run transactions
 * side by side (a job each) and keep 10. Every transaction uses only its own
 * connection, so a small pool makes them queue, never wait on each other.
 */
export function poolSizeFor(role: "all" | "web" | "worker"): number {
  return role === "web" ? 4 : 10;
}

/** Postgres when a URL is given, else the embedded PGlite under the data directory. */
export function databaseTarget(
  databaseUrl: string | undefined,
  dataDir: string,
  poolSize?: number,
): ConfiguredDatabase {
  if (databaseUrl)
    return poolSize === undefined
      ? { kind: "postgres", url: databaseUrl }
      : { kind: "postgres", url: databaseUrl, max: poolSize };
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
