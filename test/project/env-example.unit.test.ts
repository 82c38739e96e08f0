import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { envSchema } from "../../src/platform/config/config";

describe(".env.example", () => {
  const listed = readFileSync(new URL("../../.env.example", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => line.slice(0, line.indexOf("=")));

  test("lists every variable the bot reads, once, and nothing else", () => {
    expect([...listed].sort()).toEqual(Object.keys(envSchema.shape).sort());
  });

  test("every default it shows is the one the bot uses", () => {
    const defaults = envSchema.parse({});
    for (const line of readFileSync(new URL("../../.env.example", import.meta.url), "utf8").split("\n")) {
      const m = /^([A-Z][A-Z0-9_]*)=(.+)$/.exec(line);
      if (!m) continue;
      const value = (defaults as Record<string, unknown>)[m[1]!];
      expect(String(value), m[1]).toBe(m[2]);
    }
  });
});

describe("docker-compose.yml", () => {
  test("passes every variable the bot reads to both roles (HOST stays the image's; ROLE and PORT are per service)", () => {
    const compose = readFileSync(new URL("../../docker-compose.yml", import.meta.url), "utf8");
    const block = compose.slice(compose.indexOf("x-bot-env:"), compose.indexOf("\nservices:"));
    const passed = [...block.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]);
    const perService = ["HOST", "ROLE", "PORT"];
    expect([...passed].sort()).toEqual(
      Object.keys(envSchema.shape)
        .filter((name) => !perService.includes(name))
        .sort(),
    );
    for (const role of ["web", "worker"]) {
      const service = compose.slice(compose.indexOf(`\n  ${role}:`));
      expect(service).toMatch(new RegExp(`ROLE: ${role}\\n\\s+(#.*\\n\\s+)*PORT: "\\d+"`));
    }
  });
});
