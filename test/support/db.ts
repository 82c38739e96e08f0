import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { type DatabaseHandle, openDatabase } from "../../src/platform/db/client";
import { migrateDatabase } from "../../src/platform/db/migrate";
import { projectPath } from "../../src/platform/lib/project-root";
import { defaultDatabaseUrl } from "./test-services";

/** The server tests run against; each test file gets a database of its own on it. */
export const testServerUrl = process.env.TEST_DATABASE_URL ?? defaultDatabaseUrl;

export interface TestDatabase extends DatabaseHandle {
  name: string;
  url: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A migrated database the server copies for each test file (`create database … template`):
 * a copy costs a fraction of running the migrations again. Its name carries a hash of
 * drizzle/, so a changed migration gets a template of its own; the first file to need it
 * makes it, under an advisory lock, and later runs find it.
 */
const templateName = `msb_test_template_${createHash("sha256")
  .update(
    readdirSync(projectPath("drizzle"), { recursive: true, encoding: "utf8" })
      .sort()
      .map((f) => {
        const path = join(projectPath("drizzle"), f);
        return statSync(path).isFile() ? `${f}\n${readFileSync(path, "utf8")}` : f;
      })
      .join("\n"),
  )
  .digest("hex")
  .slice(0, 12)}`;

async function ensureTemplate(admin: postgres.Sql): Promise<void> {
  const exists = async () =>
    (await admin`select 1 from pg_database where datname = ${templateName} and datistemplate`).length > 0;
  if (await exists()) return;
  await admin`select pg_advisory_lock(772212)`;
  try {
    if (await exists()) return;
    await admin.unsafe(`drop database if exists "${templateName}" with (force)`);
    await admin.unsafe(`create database "${templateName}"`);
    const handle = await openDatabase({
      kind: "postgres",
      url: withDatabase(testServerUrl, templateName),
      max: 1,
    });
    try {
      await migrateDatabase(handle);
    } finally {
      await handle.close();
    }
    await admin.unsafe(`alter database "${templateName}" with is_template true allow_connections false`);
  } finally {
    await admin`select pg_advisory_unlock(772212)`;
  }
}

export async function createTestDatabase(
  options: { max?: number; migrate?: boolean } = {},
): Promise<TestDatabase> {
  const name = `msb_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(testServerUrl, { max: 1, onnotice: () => {} });
  try {
    if (options.migrate === false) await admin.unsafe(`create database "${name}"`);
    else {
      await ensureTemplate(admin);
      await admin.unsafe(`create database "${name}" template "${templateName}"`);
    }
  } finally {
    await admin.end();
  }
  const url = withDatabase(testServerUrl, name);
  const handle = await openDatabase({ kind: "postgres", url, max: options.max ?? 10 });
  return {
    ...handle,
    name,
    url,
    async drop() {
      await handle.close();
      const again = postgres(testServerUrl, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists "${name}" with (force)`);
      await again.end();
    },
  };
}

export async function createPgliteDatabase(): Promise<TestDatabase> {
  const handle = await openDatabase({ kind: "pglite" });
  await migrateDatabase(handle);
  return { ...handle, name: "pglite", url: "memory://", drop: () => handle.close() };
}
