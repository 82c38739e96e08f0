import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Executor } from "../../../src/platform/db/client";
import { preparedQuery, statementsSent } from "../../../src/platform/db/prepared-statements";
import { rowsOf } from "../../../src/platform/db/raw-rows";
import { createMetrics } from "../../../src/platform/metrics/metrics";
import { createTestDatabase, type TestDatabase } from "../../support/db";

/** The statements the executor's connection keeps prepared (named ones only: an unprepared query leaves none). */
async function preparedHere(ex: Executor): Promise<string[]> {
  const rows = rowsOf<{ statement: string }>(
    await ex.execute(sql`select statement from pg_prepared_statements`),
  );
  return rows.map((r) => r.statement);
}

describe("drizzle's statements are prepared (one round trip each once a connection knows them)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    // one connection: what one statement prepared, the next sees
    database = await createTestDatabase({ max: 1 });
  });
  afterAll(async () => database?.drop());

  test("a query with parameters, run twice, is prepared once and kept", async () => {
    const marker = `m${Date.now()}`;
    for (let i = 0; i < 2; i++)
      await database.db.execute(sql`select ${i}::int as n, ${marker}::text as marker`);
    const kept = (await preparedHere(database.db)).filter((s) => s.includes("as marker"));
    expect(kept).toHaveLength(1);
  });

  test("inside a transaction and a savepoint too", async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select ${1}::int as in_transaction`);
      await tx.transaction(async (savepoint) => {
        await savepoint.execute(sql`select ${2}::int as in_savepoint`);
        const kept = await preparedHere(savepoint);
        expect(kept.some((s) => s.includes("as in_transaction"))).toBe(true);
        expect(kept.some((s) => s.includes("as in_savepoint"))).toBe(true);
      });
    });
  });

  test("a statement a migration changed under it is prepared again, not failed", async () => {
    await database.db.execute(sql`create table if not exists shape_changes (id int primary key, a int)`);
    await database.db.execute(sql`insert into shape_changes values (1, 1) on conflict do nothing`);
    const read = () => database.db.execute(sql`select * from shape_changes where id = ${1}`);
    await read();
    await database.db.execute(sql`alter table shape_changes add column b text default 'x'`);
    expect(rowsOf<{ b: string }>(await read())[0]?.b).toBe("x");
  });

  test("every statement sent is counted, and /metrics reports the count", async () => {
    const before = statementsSent();
    await database.db.execute(sql`select 1 as one`);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select ${2}::int as two`);
    });
    expect(statementsSent() - before).toBe(2);
    const text = await createMetrics().registry.getSingleMetricAsString("msb_db_statements_total");
    expect(text).toContain(`msb_db_statements_total ${statementsSent()}`);
  });

  test("a prepared query is built once per database", () => {
    const built: object[] = [];
    const query = preparedQuery((db: object) => {
      built.push(db);
      return { for: db };
    });
    const first = {};
    const second = {};
    expect(query(first)).toBe(query(first));
    expect(query(second).for).toBe(second);
    expect(built).toEqual([first, second]);
  });
});
