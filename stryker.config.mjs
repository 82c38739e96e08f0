// @ts-check
/**
 * StrykerJS over the money, generations and delivery modules (scripts/mutation.sh picks
 * the files and the tests per module). MUTATION_NAME names a module's report and
 * incremental file, so two modules can run at once.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const name = process.env.MUTATION_NAME ?? "all";

export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  mutate: ["src/domain/credits/**/*.ts", "src/domain/generations/**/*.ts"],
  coverageAnalysis: "perTest",
  incremental: true,
  incrementalFile: `reports/stryker-incremental-${name}.json`,
  concurrency: 2,
  timeoutMS: 60000,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
