import { createTestDatabase } from "../../support/db";
import { ledgerContract } from "./ledger-contract";

ledgerContract("real Postgres", () => createTestDatabase({ max: 20 }), { concurrency: 1000, runs: 2000 });
