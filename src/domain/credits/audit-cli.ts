import { openDatabase } from "../../platform/db/client";
import { databaseTargetFromEnv } from "../../platform/db/database-target";
import { messageOf } from "../../platform/lib/message-of";
import { createLedger } from "./ledger";

/**
 * `npm run audit`: checks the whole ledger (balances against entries, open holds
 * against held, no hold resolved twice). Prints each violation and exits 1 when
 * there is any; needs only DATABASE_URL.
 */
try {
  const handle = await openDatabase(databaseTargetFromEnv(process.env));
  try {
    const violations = await createLedger(handle.db).audit();
    for (const v of violations) console.log(JSON.stringify(v));
    console.log(
      violations.length === 0 ? "ledger audit: clean" : `ledger audit: ${violations.length} violation(s)`,
    );
    process.exitCode = violations.length === 0 ? 0 : 1;
  } finally {
    await handle.close();
  }
} catch (err) {
  console.error(`ledger audit could not run: ${messageOf(err)}`);
  process.exit(2);
}
