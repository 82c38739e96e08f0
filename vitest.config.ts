import { existsSync, readFileSync } from "node:fs";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";
import { z } from "zod";

/**
 * Each file's seconds on a 2-core machine (test/durations.json, from a run's
 * test-results/durations.json: `npm run test:durations`). Files of ten seconds or
 * more start first, the longest first, so that none of them is the tail of the run;
 * the others follow in the seed's order. A file the record does not know is short.
 */
const recordedSeconds = existsSync("test/durations.json")
  ? z.record(z.string(), z.number()).parse(JSON.parse(readFileSync("test/durations.json", "utf8")))
  : {};
const longSeconds = 10;

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

/** Files in the seed's order, the long ones first, longest first. */
class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { root, sequence } = this.ctx.config;
    const seconds = (f: TestSpecification) => recordedSeconds[f.moduleId.slice(root.length + 1)] ?? 0;
    const order = shuffled(files, sequence.seed ?? 0);
    const long = order.filter((f) => seconds(f) >= longSeconds).sort((a, b) => seconds(b) - seconds(a));
    return [...long, ...order.filter((f) => seconds(f) < longSeconds)];
  }
}

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // a poll waits as long as the harness's waits (vitest's 1 s default: a page's answer that
    // came 1.2 s later on a loaded machine, an edit waiting its chat's turn, failed the test)
    expect: { poll: { timeout: 20_000 } },
    // two files at once, one per core. Measured on this 2-core machine: 2 workers 903 s,
    // 3 workers 641 s and 666 s, 4 workers 660 s; but beside a third and a fourth file, tests
    // that wait on real time failed in fresh-clone runs (the Mini App's dub recorded late in 2
    // of 4 runs at 4; a playground answer past 20 s at 3), so the suite keeps to the cores
    maxWorkers: 2,
    projects: [
      // pure logic, each file leaving nothing behind: one import of the code for many files
      // (per-file isolation cost more than the tests themselves)
      {
        extends: true,
        test: { name: "unit", include: ["test/**/*.unit.test.ts"], pool: "threads", isolate: false },
      },
      // child processes, each file with a runtime (harness) of its own, but the code imported
      // once per process, not once per file: imports were 266 s of a 2-worker run's file time
      // with per-file isolation, 113 s without (and the run 1,001 s, then 918 s). No file here
      // mocks a module or changes process.env; `npm run test:order` still runs each one alone
      {
        extends: true,
        test: {
          name: "system",
          include: ["test/**/*.test.ts"],
          exclude: ["test/**/*.unit.test.ts"],
          pool: "forks",
          isolate: false,
        },
      },
    ],
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
    // on CI, the JSON report (the count) and each file's seconds (test-results/durations.json)
    reporters: process.env.CI
      ? ["default", ["json", { outputFile: "test-results.json" }], "./test/support/durations-reporter.ts"]
      : ["default"],
  },
});
