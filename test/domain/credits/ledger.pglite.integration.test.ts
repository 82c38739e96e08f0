import { createPgliteDatabase } from "../../support/db";
import { ledgerContract } from "./ledger-contract";

ledgerContract("embedded PGlite", createPgliteDatabase, { concurrency: 1000, runs: 1000 });
