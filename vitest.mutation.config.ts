import { defineConfig } from "vitest/config";

/**
 * The tests Stryker runs for each mutant: only those of the module under test
 * (MUTATION_TESTS, comma separated globs), so a run per module stays minutes.
 */
const tests = (process.env.MUTATION_TESTS ?? "test/domain/credits/*.test.ts").split(",");

export default defineConfig({
  test: {
    include: tests,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 1,
  },
});
