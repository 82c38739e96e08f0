import { writeFileSync } from "node:fs";

/**
 * Prints a bench's result as one JSON document; with BENCH_SAVE set, also
 * writes it to bench/results/<name>.json (the "last result" of docs/benchmarks.md).
 */
export function report(name: string, result: unknown): void {
  const json = `${JSON.stringify(result, null, 2)}\n`;
  process.stdout.write(json);
  if (process.env.BENCH_SAVE) writeFileSync(new URL(`../results/${name}.json`, import.meta.url), json);
}
