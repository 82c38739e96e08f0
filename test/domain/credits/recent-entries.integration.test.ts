import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLedger, type Ledger } from "../../../src/domain/credits/ledger";
import { latestEntries, recentEntries } from "../../../src/domain/credits/recent-entries";
import { createTestDatabase, type TestDatabase } from "../../support/db";

/** /balance and the Mini App's Credits: one line per request, its last movement (issue 48). */
describe("the movements a user reads, on real Postgres", () => {
  let database: TestDatabase;
  let ledger: Ledger;
  const u = 48_000;

  beforeAll(async () => {
    database = await createTestDatabase();
    ledger = createLedger(database.db);
    await ledger.grant({ userId: u, amount: 100, key: `welcome:${u}` });
    // still reserved
    await ledger.hold({ userId: u, amount: 4, key: `open-${u}` });
    // reserved, then spent
    await ledger.hold({ userId: u, amount: 5, key: `spent-${u}` });
    await ledger.charge({ key: `spent-${u}` });
    // reserved, then returned
    await ledger.hold({ userId: u, amount: 6, key: `returned-${u}` });
    await ledger.release({ key: `returned-${u}` });
    // reserved, spent, then refunded
    await ledger.hold({ userId: u, amount: 7, key: `refunded-${u}` });
    await ledger.charge({ key: `refunded-${u}` });
    await ledger.refund({ holdKey: `refunded-${u}`, key: `refund-${u}` });
    await ledger.grant({ userId: u, amount: 50, key: `purchase-${u}`, kind: "purchase" });
  });
  afterAll(async () => database?.drop());

  test("each request shows once, as its last movement; grants and purchases as they are", async () => {
    const shown = (await recentEntries(database.db, u, 10)).map((e) => [e.label, e.amount]);
    expect(shown).toEqual([
      ["purchase", 50],
      ["refund", 7],
      ["release", 6],
      ["charge", 5],
      ["hold", 4],
      ["welcome", 100],
    ]);
  });

  test("the limit counts the lines shown, not the entries behind them", async () => {
    const shown = (await recentEntries(database.db, u, 3)).map((e) => e.label);
    expect(shown).toEqual(["purchase", "refund", "release"]);
  });

  test("an admin's /user still reads every entry as recorded", async () => {
    expect((await latestEntries(database.db, u, 20)).map((e) => e.kind)).toEqual([
      "purchase",
      "refund",
      "charge",
      "hold",
      "release",
      "hold",
      "charge",
      "hold",
      "hold",
      "grant",
    ]);
  });
});
