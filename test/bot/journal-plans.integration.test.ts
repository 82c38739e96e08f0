import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/db";

/**
 * The journal's functions keep the plans they made at a connection's first
 * call, which on a new database is a table of a few rows. Whatever the table holds
 * later, a claim must reach the updates sharing its key through that key's
 * index, and a finish its rows through the primary key: a plan that scans a
 * whole index (or the table) costs more with every update handled (it did:
 * hundreds of pages per claim within a minute of a benchmark).
 * Postgres's auto_explain shows the plans each call ran, with the pages read.
 */
describe("the update journal's plans, made on a new database", () => {
  let database: TestDatabase;
  let sql: postgres.Sql;
  const notices: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({ max: 1 });
    // one connection: the plans it makes at the first call are the ones it uses later
    sql = postgres(database.url, { max: 1, onnotice: (n) => notices.push(String(n.message)) });
  });
  afterAll(async () => {
    await sql?.end();
    await database?.drop();
  });

  const claim = (id: number, keys: string[]) =>
    sql`select outcome from claim_updates(${sql.json([{ id, payload: { update_id: id }, keys, token: `t${id}` }])}, 'test', 60000, false)`;
  const finish = (id: number, keys: string[]) =>
    sql`select finish_updates(${sql.json([{ id, token: `t${id}`, state: "done", keys }])}, 'test')`;

  /** `count` updates of other people from `first` on: half pending, a third in groups (two keys) */
  const others = (first: number, count: number) => sql`
    insert into processed_updates (update_id, payload, state, sequence_keys)
    select ${first} + n, '{}'::jsonb, case when n % 2 = 0 then 'pending' else 'done' end,
      case when n % 3 = 0 then array['chat:-' || n, 'user:' || n] else array['user:' || n] end
    from generate_series(1, ${count}::int) as n`;

  /** the pages each plan auto_explain printed read, by the statement's first words */
  const pagesRead = (statement: string): number[] =>
    notices
      .filter((n) => n.includes(statement))
      .map((n) => [...n.matchAll(/Buffers: shared hit=(\d+)(?: read=(\d+))?/g)])
      .map((hits) => hits.reduce((sum, m) => Math.max(sum, Number(m[1]) + Number(m[2] ?? 0)), 0));

  test("a claim reads a handful of pages, however many other updates wait", async () => {
    // the plans are made now, on a table that holds a few updates (as a new database does
    // when its first claims come): pending ones, in private chats and in groups
    await others(100_000, 20);
    for (let id = 1; id <= 3; id++) {
      expect(await claim(id, ["user:1"])).toEqual([{ outcome: "claimed" }]);
      await finish(id, ["user:1"]);
    }
    // then thousands more, pending and finished
    await others(1_000, 6_000);

    await sql`load 'auto_explain'`;
    await sql`set auto_explain.log_min_duration = 0`;
    await sql`set auto_explain.log_nested_statements = on`;
    await sql`set auto_explain.log_analyze = on`;
    await sql`set auto_explain.log_buffers = on`;
    await sql`set auto_explain.log_level = notice`;
    await sql`set client_min_messages = notice`;
    notices.length = 0;

    // a private chat's update (one key) and a group's (two keys)
    expect(await claim(100, ["user:1"])).toEqual([{ outcome: "claimed" }]);
    expect(await claim(101, ["chat:-7", "user:7"])).toEqual([{ outcome: "claimed" }]);
    await finish(100, ["user:1"]);

    const looks = pagesRead("blocked := cardinality(ks)");
    expect(looks).toHaveLength(2);
    for (const pages of looks) expect(pages).toBeLessThan(20);
    const finishes = [
      ...pagesRead("UPDATE processed_updates u"),
      ...pagesRead("FROM processed_updates u WHERE u.update_id = ANY"),
    ];
    expect(finishes).toHaveLength(2);
    for (const pages of finishes) expect(pages).toBeLessThan(20);
    expect(notices.join("\n")).not.toContain("Seq Scan on processed_updates");
  });
});
