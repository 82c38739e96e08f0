import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const manifest = z
  .object({
    engines: z.object({ node: z.string() }),
    devDependencies: z.object({ node: z.string() }),
  })
  .parse(JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")));
const major = (version: string) => /(\d+)/.exec(version)?.[1];

/** One Node for the project, wherever it runs: the tests, npm scripts, engines and the image. */
describe("the project's Node", () => {
  test("the tests run on the node devDependency's Node (npm scripts put it first on PATH), 24 LTS", () => {
    expect(major(manifest.devDependencies.node)).toBe("24");
    expect(process.versions.node).toBe(manifest.devDependencies.node);
  });

  test("engines asks for it, and both stages of the Dockerfile are built on it", () => {
    expect(manifest.engines.node).toBe(">=24");
    const stages = readFileSync(new URL("../../Dockerfile", import.meta.url), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("FROM "));
    expect(stages).toHaveLength(2);
    for (const stage of stages) expect(stage).toMatch(/^FROM node:24-bookworm-slim\b/);
  });
});
