import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * Files that take ten seconds or more on a 2-core machine, and every browser test
 * (`*.browser.test.ts`). They start first, in the shuffled order, so that none of
 * them is the tail of the run.
 */
const longFiles = [
  "test/domain/credits/ledger.",
  "test/project/build-start.e2e.test.ts",
  "test/runtime/operations-process.e2e.test.ts",
  "test/bot/bot-crash.e2e.test.ts",
  "test/domain/generations/crash.e2e.test.ts",
  "test/features/broadcasts/broadcast-crash.e2e.test.ts",
  "test/features/payments/payments.e2e.test.ts",
  "test/sandbox/sandbox.e2e.test.ts",
  "test/runtime/operator-paths.e2e.test.ts",
  "test/features/broadcasts/broadcast.e2e.test.ts",
  "test/features/requests/conversations.e2e.test.ts",
  "test/domain/generations/dub-parts-crash.e2e.test.ts",
  "test/domain/generations/dub-parts.e2e.test.ts",
  "test/domain/generations/long-dubs.e2e.test.ts",
  "test/platform/ffmpeg/dub-cuts.integration.test.ts",
  "test/features/miniapp/miniapp-api.integration.test.ts",
  "test/platform/storage/object-store.e2e.test.ts",
  "test/platform/storage/object-store-crash.e2e.test.ts",
  "test/domain/generations/dub-parts-bucket.e2e.test.ts",
];

/** Fisher-Yates on a seeded generator (mulberry32): the same seed, the same order. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Files in the seed's order, the long ones first. */
class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { root, sequence } = this.ctx.config;
    const isLong = (f: TestSpecification) => {
      const path = f.moduleId.slice(root.length + 1);
      return path.endsWith(".browser.test.ts") || longFiles.some((prefix) => path.startsWith(prefix));
    };
    const order = shuffled(files, sequence.seed ?? 0);
    return [...order.filter(isLong), ...order.filter((f) => !isLong(f))];
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    // Postgres and Redis found, or started for the run where none answers (test-services.ts);
    // dist/ (the bundle and the playground page) is built once, before any file runs:
    // files that start the built bot or serve the page never see it half written
    globalSetup: ["test/support/test-services.ts", "test/support/build-once.ts"],
    // every run in its own order: files and the tests in them, from a seed vitest prints
    // (TEST_SEED, or --sequence.seed, repeats an order)
    sequence: {
      shuffle: true,
      sequencer: LongFilesFirst,
      ...(process.env.TEST_SEED ? { seed: Number(process.env.TEST_SEED) } : {}),
    },
    reporters: process.env.CI ? ["default", ["json", { outputFile: "test-results.json" }]] : ["default"],
  },
});
