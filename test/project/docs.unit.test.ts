import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { envSchema } from "../../src/platform/config/config";

/**
 * The README is the front door and docs/ holds the rest: these checks keep the
 * two honest as the code moves (every setting documented, no dead link, a short
 * README). .env.example is env-example.test.ts's.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const read = (path: string) => readFileSync(join(root, path), "utf8");

/** Every Markdown page of the repository (README.md, docs/, notes beside the code), as paths from its root. */
const pages = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.md"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter(Boolean);

/** The text outside fenced code blocks, line by line (a `# comment` in a bash block is no heading). */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    if (fence === undefined) lines.push(line);
  }
  return lines;
}

/** The targets of `[text](target)` and `![alt](target)`, outside code (fenced or inline). */
function linkTargets(markdown: string): string[] {
  const text = proseLines(markdown)
    .join("\n")
    .replace(/`[^`\n]*`/g, "code");
  return [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Links to other sites and mail addresses are not checked here. */
const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe("documentation", () => {
  const variables = Object.keys(envSchema.shape);

  test("docs/configuration.md names every environment variable of the schema in backticks", () => {
    const configuration = read("docs/configuration.md");
    expect(variables.length).toBeGreaterThan(0);
    const missing = variables.filter((name) => !configuration.includes(`\`${name}\``));
    expect(missing, "variables missing from docs/configuration.md").toEqual([]);
  });

  test("every relative link and image in the Markdown pages leads to a file or folder that exists", () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const target of linkTargets(read(page))) {
        if (external(target)) continue;
        const path = decodeURI(target.split("#")[0]!);
        if (path === "") continue;
        if (!existsSync(resolve(root, dirname(page), path))) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken, "links to nothing").toEqual([]);
  });

  test("every #anchor in the Markdown pages names a heading of the page it points to", () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const target of linkTargets(read(page))) {
        if (external(target) || !target.includes("#")) continue;
        const [path, anchor] = [target.slice(0, target.indexOf("#")), target.slice(target.indexOf("#") + 1)];
        const file = path === "" ? join(root, page) : resolve(root, dirname(page), decodeURI(path));
        // a missing file is the test above's to report; anchors are checked in Markdown pages only
        if (!existsSync(file) || statSync(file).isDirectory() || !file.endsWith(".md")) continue;
        const anchors = headingAnchors(readFileSync(file, "utf8"));
        if (!anchors.has(decodeURIComponent(anchor!).toLowerCase())) {
          broken.push(`${page}: ${target} (no such heading in ${relative(root, file)})`);
        }
      }
    }
    expect(broken, "anchors that name no heading").toEqual([]);
  });

  test("README.md has at most 150 lines", () => {
    const lines = read("README.md").split("\n").length - 1;
    expect(lines).toBeLessThanOrEqual(150);
  });
});
