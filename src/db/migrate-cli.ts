import { environment, loadConfig } from "../config";
import { openDatabase } from "./client";
import { migrateDatabase } from "./migrate";

const config = loadConfig(environment());
const handle = openDatabase(config.database);
await migrateDatabase(handle);
await handle.close();
console.log(`migrations applied (${handle.kind})`);
