import { messageOf } from "../lib/message-of";
import { openDatabase } from "./client";
import { databaseTargetFromEnv } from "./database-target";
import { migrateDatabase } from "./migrate";

/** `npm run db:migrate`: needs only DATABASE_URL (without it, the embedded database under DATA_DIR). */
try {
  const handle = await openDatabase(databaseTargetFromEnv(process.env));
  try {
    await migrateDatabase(handle);
  } finally {
    await handle.close();
  }
  console.log(`migrations applied (${handle.kind})`);
} catch (err) {
  console.error(`migrations not applied: ${messageOf(err)}`);
  process.exit(1);
}
