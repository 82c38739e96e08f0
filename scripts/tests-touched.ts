import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

/**
 * The test files a change touched: those it changed, and those importing (through
 * any chain of test/ files) a test/ file it changed, such as one of test/support.
 * CI runs each of them alone, so a file that leans on another's leftovers shows.
 *
 *   tsx scripts/tests-touched.ts [<base commit>]
 *
 * The change is <base>..HEAD; without a base, CI_BASE, else the commits of the 3
 * hours before HEAD's own (a session's work). Prints one path a line.
 */

const relativeImport = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

/** What each test/ file imports of test/, by path from the project root. */
export function testImports(files: readonly string[], read: (path: string) => string): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const [, spec] of read(file).matchAll(relativeImport)) {
      const base = normalize(join(dirname(file), spec!));
      const found = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((p) => known.has(p));
      if (found) targets.push(found);
    }
    graph.set(file, targets);
  }
  return graph;
}

/**
 * Test files (`*.test.ts`) among `changed`, then those reaching a changed file
 * through their imports (each group sorted): when CI runs them alone within a
 * time budget, the files the change wrote come first.
 */
export function touchedTests(changed: readonly string[], graph: ReadonlyMap<string, string[]>): string[] {
  const importers = new Map<string, string[]>();
  for (const [file, deps] of graph)
    for (const dep of deps) importers.set(dep, [...(importers.get(dep) ?? []), file]);
  // from each changed file back along the imports: everything that reaches it
  const reached = new Set(changed.filter((f) => graph.has(f)));
  const queue = [...reached];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const importer of importers.get(file) ?? []) {
      if (reached.has(importer)) continue;
      reached.add(importer);
      queue.push(importer);
    }
  }
  const tests = [...reached].filter((f) => f.endsWith(".test.ts")).sort();
  const own = new Set(changed);
  return [...tests.filter((f) => own.has(f)), ...tests.filter((f) => !own.has(f))];
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return listFiles(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

function git(...args: string[]): string {
  return execFileSync("git", args, { encoding: "utf8" }).trim();
}

function changeBase(): string {
  const given = process.argv[2] ?? process.env.CI_BASE;
  if (given) return given;
  const headTime = Number(git("log", "-1", "--format=%ct", "HEAD"));
  const before = git("rev-list", "-1", `--before=@${headTime - 3 * 3600}`, "HEAD");
  // a history younger than the window: its first commit is the base
  return before || git("rev-list", "--max-parents=0", "HEAD").split("\n")[0]!;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const base = changeBase();
  const changed = git("diff", "--name-only", `${base}..HEAD`, "--", "test").split("\n").filter(Boolean);
  const graph = testImports(listFiles("test"), (p) => readFileSync(p, "utf8"));
  process.stderr.write(`the change: ${base.slice(0, 12)}..HEAD, ${changed.length} test/ files changed\n`);
  for (const file of touchedTests(changed, graph)) process.stdout.write(`${file}\n`);
}
