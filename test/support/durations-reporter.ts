import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** Where a CI run leaves each file's seconds: read by scripts/test-alone.sh, copied to test/durations.json by `npm run test:durations`. */
const runDurationsPath = join("test-results", "durations.json");

/**
 * Each test file's whole time, its hooks and imports included (the JSON report
 * counts only the tests, so a file doing its work in beforeAll reads as a
 * second), in seconds, written as one object at the end of the run.
 */
export default class DurationsReporter implements Reporter {
  private readonly seconds = new Map<string, number>();

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    const ms =
      d.prepareDuration + d.environmentSetupDuration + d.setupDuration + d.collectDuration + d.duration;
    this.seconds.set(module.relativeModuleId, Math.round(ms / 100) / 10);
  }

  onTestRunEnd(): void {
    const sorted = [...this.seconds].sort(([a], [b]) => a.localeCompare(b));
    mkdirSync("test-results", { recursive: true });
    writeFileSync(runDurationsPath, `${JSON.stringify(Object.fromEntries(sorted), null, 2)}\n`);
  }
}
