import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { type DatabaseHandle, openDatabase } from "../../src/platform/db/client";
import { migrateDatabase } from "../../src/platform/db/migrate";
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

export async function createTestDatabase(
  options: { max?: number; migrate?: boolean } = {},
): Promise<TestDatabase> {
  const name = `msb_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(testServerUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = withDatabase(testServerUrl, name);
  const handle = await openDatabase({ kind: "postgres", url, max: options.max ?? 10 });
  if (options.migrate !== false) await migrateDatabase(handle);
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
