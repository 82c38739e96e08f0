import type { Sql } from "postgres";

let statements = 0;

/**
 * Statements this process sent to Postgres through drizzle, every one of them
 * (transactions' BEGIN and COMMIT aside): each is a round trip, unless it went
 * out pipelined behind another on the same connection. Counted here, where they
 * all pass, rather than read from pg_stat_database, which a busy backend
 * updates only every few seconds.
 */
export const statementsSent = (): number => statements;

/**
 * The postgres.js client as drizzle should use it: every statement prepared.
 *
 * drizzle runs each query through `sql.unsafe(text, params, { prepare: false })`
 * unless it was made with `.prepare(name)` (drizzle-orm#6096, open). Unprepared,
 * postgres.js first asks Postgres for the parameter types (Parse, Describe) and
 * only then runs the query: two round trips for every statement with a
 * parameter. Prepared, a connection does that once per statement text and every
 * later run is one round trip (`bench/results/updates.json`). Transactions and
 * savepoints hand drizzle a scoped client, which is given the same treatment.
 *
 * The statements each connection keeps are bounded by its lifetime (postgres.js
 * replaces a connection after 30 to 60 minutes), and a statement a migration
 * invalidated is prepared again by postgres.js itself.
 */
export function preparingClient<T extends Sql>(sql: T): T {
  return new Proxy(sql, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (property === "unsafe") {
        return (text: string, params?: unknown[], options?: Record<string, unknown>) => {
          statements += 1;
          return Reflect.apply(value, target, [text, params, { ...options, prepare: true }]);
        };
      }
      if (property === "begin" || property === "savepoint") {
        // (options?, callback): the callback receives the scoped client
        return (...args: unknown[]) => {
          const last = args.length - 1;
          const callback = args[last];
          if (typeof callback === "function") {
            args[last] = (scoped: Sql) => Reflect.apply(callback, undefined, [preparingClient(scoped)]);
          }
          return Reflect.apply(value, target, args);
        };
      }
      return value;
    },
  });
}

/**
 * A query drizzle turns into SQL once per database and then runs with its
 * placeholders filled (`sql.placeholder`). Built anew, drizzle builds a query's
 * SQL on every run: on the webhook's path that was a quarter of everything an
 * update allocated (bench/updates under an allocation profile), and its
 * garbage collection a fifth of the CPU.
 */
export function preparedQuery<D extends object, Q>(build: (db: D) => Q): (db: D) => Q {
  const built = new WeakMap<D, Q>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
