import { ConfigError, environment, loadConfig } from "./config";
import { openDatabase } from "./db/client";
import { migrateDatabase } from "./db/migrate";

function fail(err: unknown): never {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  throw err;
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(environment());
} catch (err) {
  fail(err);
}

const handle = openDatabase(config.database);
await migrateDatabase(handle);
process.stdout.write(`media studio bot: database ready (${handle.kind}), role ${config.role}\n`);
await handle.close();
