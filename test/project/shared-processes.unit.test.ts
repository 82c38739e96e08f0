import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";

/**
 * Both projects of vitest.config.ts run files without per-file isolation: a
 * process (or thread) imports the code once and runs file after file. So no
 * test file may leave the process changed for the next: no module mocked, no
 * environment variable or global stubbed, no working directory moved, and fake
 * timers only where the same file puts the real ones back.
 */
const testFiles = (readdirSync("test", { recursive: true }) as string[])
  .filter((f) => f.endsWith(".test.ts"))
  .map((f) => join("test", f));

const leaves = [
  { what: "a mocked module", pattern: /\bvi\.(do)?mock\(/, sample: 'vi.mock("../src/x")' },
  {
    what: "a stubbed environment variable or global",
    pattern: /\bvi\.stub(Env|Global)\(/,
    sample: 'vi.stubEnv("TZ", "UTC")',
  },
  {
    what: "process.env written",
    pattern: /process\.env(\.\w+|\[[^\]]+\])\s*=(?!=)|delete process\.env/,
    sample: 'process.env.LOG_LEVEL = "info"',
  },
  { what: "the working directory moved", pattern: /process\.chdir\(/, sample: "process.chdir(dir)" },
];

test("the suite has its test files to look at", () => {
  expect(testFiles.length).toBeGreaterThan(100);
});

test.each(leaves)("no test file leaves $what to the next file in its process", ({ pattern, sample }) => {
  expect(pattern.test(sample)).toBe(true);
  const own = join("test", "project", "shared-processes.unit.test.ts");
  expect(testFiles.filter((f) => f !== own && pattern.test(readFileSync(f, "utf8")))).toEqual([]);
});

test("a file with fake timers puts the real ones back", () => {
  const faked = testFiles.filter((f) => /\bvi\.useFakeTimers\(/.test(readFileSync(f, "utf8")));
  expect(faked.length).toBeGreaterThan(0);
  expect(faked.filter((f) => !/\bvi\.useRealTimers\(\)/.test(readFileSync(f, "utf8")))).toEqual([]);
});
