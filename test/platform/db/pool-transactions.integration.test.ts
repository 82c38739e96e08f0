import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { poolOptions } from "../../../src/platform/db/client";
import { createTestDatabase, type TestDatabase } from "../../support/db";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe("the pool's transactions", () => {
  test("a BEGIN queued behind a full pipeline still gets its connection to itself", async () => {
    // both connections busy, then n queries spread over them in turn and a transaction:
    // for some n its BEGIN is the one that fills a connection's pipeline
    const sql = postgres(database.url, poolOptions(2));
    const failures: string[] = [];
    try {
      for (let n = 190; n < 210; n++) {
        const busy = [sql`select pg_sleep(0.05)`.execute(), sql`select pg_sleep(0.05)`.execute()];
        const queued = Array.from({ length: n }, () => sql`select 1`.execute());
        const outcome = await sql
          .begin((tx) => tx`select 2 as two`)
          .then(
            (rows) => (rows[0]?.two === 2 ? "ok" : "no row"),
            (err: Error) => err.message,
          );
        await Promise.allSettled([...busy, ...queued]);
        if (outcome !== "ok") failures.push(`${n}: ${outcome}`);
      }
    } finally {
      await sql.end();
    }
    expect(failures).toEqual([]);
  }, 30_000);
});
