import { describe, expect, test } from "vitest";
import { testImports, touchedTests } from "../../scripts/tests-touched";

/** Which test files CI runs alone for a change: scripts/tests-touched.ts on a small tree. */
describe("the test files a change touched", () => {
  const tree: Record<string, string> = {
    "test/support/db.ts": 'import postgres from "postgres";',
    "test/support/harness.ts":
      'import { createTestDatabase } from "./db";\nimport { x } from "../../src/platform/config/config";',
    "test/support/inline.ts": "export const offer = 1;",
    "test/e2e/a.test.ts": 'import { startHarness } from "../support/harness";',
    "test/e2e/b.test.ts": 'import { offer } from "../support/inline.ts";',
    "test/unit/c.test.ts": 'import { describe } from "vitest";\nconst m = await import("../support/db");',
    "test/unit/d.test.ts": 'import { describe } from "vitest";',
  };
  const graph = testImports(Object.keys(tree), (path) => tree[path]!);

  test("reads each file's relative imports of test/ files, with or without the extension, static or dynamic", () => {
    expect(graph.get("test/support/harness.ts")).toEqual(["test/support/db.ts"]);
    expect(graph.get("test/e2e/b.test.ts")).toEqual(["test/support/inline.ts"]);
    expect(graph.get("test/unit/c.test.ts")).toEqual(["test/support/db.ts"]);
    expect(graph.get("test/unit/d.test.ts")).toEqual([]);
  });

  test("a changed test file, and every test file reaching a changed support file through any chain", () => {
    expect(touchedTests(["test/unit/d.test.ts"], graph)).toEqual(["test/unit/d.test.ts"]);
    expect(touchedTests(["test/support/db.ts"], graph)).toEqual([
      "test/e2e/a.test.ts",
      "test/unit/c.test.ts",
    ]);
    expect(touchedTests(["test/support/inline.ts", "src/main.ts"], graph)).toEqual(["test/e2e/b.test.ts"]);
    // the files the change wrote first: CI runs them alone before the rest, within its budget
    expect(touchedTests(["test/support/db.ts", "test/unit/d.test.ts"], graph)).toEqual([
      "test/unit/d.test.ts",
      "test/e2e/a.test.ts",
      "test/unit/c.test.ts",
    ]);
  });

  test("a file the change deleted, or one outside test/, runs nothing; an import circle ends", () => {
    expect(touchedTests(["test/e2e/gone.test.ts", "README.md"], graph)).toEqual([]);
    const circle = testImports(["test/support/x.ts", "test/support/y.ts", "test/e2e/z.test.ts"], (path) =>
      path.endsWith("z.test.ts")
        ? 'import "../support/x";'
        : path.endsWith("x.ts")
          ? 'import "./y";'
          : 'import "./x";',
    );
    expect(touchedTests(["test/support/y.ts"], circle)).toEqual(["test/e2e/z.test.ts"]);
    // reached through a node of the circle seen first from elsewhere
    const late = testImports(
      [
        "test/e2e/first.test.ts",
        "test/e2e/second.test.ts",
        "test/support/y.ts",
        "test/support/x.ts",
        "test/support/s.ts",
      ],
      (path) =>
        ({
          "test/e2e/first.test.ts": 'import "../support/y";',
          "test/e2e/second.test.ts": 'import "../support/x";',
          "test/support/y.ts": 'import "./x";\nimport "./s";',
          "test/support/x.ts": 'import "./y";',
          "test/support/s.ts": "",
        })[path]!,
    );
    expect(touchedTests(["test/support/s.ts"], late)).toEqual([
      "test/e2e/first.test.ts",
      "test/e2e/second.test.ts",
    ]);
  });
});
