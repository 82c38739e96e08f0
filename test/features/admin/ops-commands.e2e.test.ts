import { spawn } from "node:child_process";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLedger } from "../../../src/domain/credits/ledger";
import { createTestDatabase, type TestDatabase } from "../../support/db";

/** Runs an npm script as an operator would, with only the environment given (plus PATH). */
function npmRun(script: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn("npm", ["run", "-s", script], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", ...env },
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("close", (code) => resolve({ code, out }));
  });
}

describe("operator commands", () => {
  let fresh: TestDatabase;
  let ledgerDb: TestDatabase;

  beforeAll(async () => {
    fresh = await createTestDatabase({ migrate: false });
    ledgerDb = await createTestDatabase();
  });
  afterAll(async () => {
    await fresh?.drop();
    await ledgerDb?.drop();
  });

  test("npm run db:migrate needs only DATABASE_URL", async () => {
    const { code, out } = await npmRun("db:migrate", { DATABASE_URL: fresh.url });
    expect(out).toContain("migrations applied (postgres)");
    expect(code).toBe(0);
    const tables = await fresh.db.execute(sql`select to_regclass('public.credit_accounts') as t`);
    expect(JSON.stringify(tables)).toContain("credit_accounts");
  });

  test("npm run db:migrate with a malformed DATABASE_URL says so in one line and exits 1", async () => {
    const { code, out } = await npmRun("db:migrate", { DATABASE_URL: "mysql://nope" });
    expect(code).toBe(1);
    expect(out.trim()).toBe("migrations not applied: DATABASE_URL must be a postgres:// URL");
  });

  test("npm run audit passes a clean ledger and reports a corrupted row with exit 1", async () => {
    const ledger = createLedger(ledgerDb.db);
    await ledger.grant({ userId: 7001, amount: 50, key: "audit-cli-grant" });
    await ledger.hold({ userId: 7001, amount: 10, key: "audit-cli-hold" });
    const clean = await npmRun("audit", { DATABASE_URL: ledgerDb.url });
    expect(clean.out).toContain("ledger audit: clean");
    expect(clean.code).toBe(0);

    // a balance changed behind the ledger's back: no entry explains it
    await ledgerDb.db.execute(sql`update credit_accounts set available = available + 5 where user_id = 7001`);
    const corrupted = await npmRun("audit", { DATABASE_URL: ledgerDb.url });
    expect(corrupted.code).toBe(1);
    expect(corrupted.out).toContain("7001");
    expect(corrupted.out).toMatch(/ledger audit: \d+ violation/);
  });
});
