import { performance } from "node:perf_hooks";
import { createLedger } from "../src/domain/credits/ledger";
import { createTestDatabase } from "../test/support/db";

/**
 * Ledger throughput on real Postgres: holds from many users at once (the usual
 * load) and holds against one hot account (the worst case: one row lock).
 */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(label: string, n: number, op: (i: number) => Promise<unknown>, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = performance.now();
        await op(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name: label,
    operations: n,
    concurrency,
    ops_per_second: Math.round(n / seconds),
    p50_ms: Number(percentile(latencies, 50).toFixed(2)),
    p99_ms: Number(percentile(latencies, 99).toFixed(2)),
  };
}

export async function ledgerBench() {
  const database = await createTestDatabase({ max: 20 });
  try {
    const ledger = createLedger(database.db);
    const users = 200;
    for (let u = 1; u <= users; u++) await ledger.grant({ userId: u, amount: 1_000_000, key: `seed-${u}` });
    await ledger.grant({ userId: 9999, amount: 1_000_000, key: "seed-hot" });
    const results = [
      await measure(
        "hold, many users",
        4000,
        (i) => ledger.hold({ userId: (i % users) + 1, amount: 1, key: `m-${i}` }),
        20,
      ),
      await measure("charge, many users", 4000, (i) => ledger.charge({ key: `m-${i}` }), 20),
      await measure(
        "hold, one hot account",
        2000,
        (i) => ledger.hold({ userId: 9999, amount: 1, key: `h-${i}` }),
        20,
      ),
    ];
    const t0 = performance.now();
    const violations = await ledger.audit();
    return { results, audit_ms: Math.round(performance.now() - t0), audit_violations: violations.length };
  } finally {
    await database.drop();
  }
}
