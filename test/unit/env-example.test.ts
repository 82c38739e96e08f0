import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { envSchema } from "../../src/config";

describe(".env.example", () => {
  const listed = readFileSync(new URL("../../.env.example", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => line.slice(0, line.indexOf("=")));

  test("lists every variable the bot reads, once, and nothing else", () => {
    expect([...listed].sort()).toEqual(Object.keys(envSchema.shape).sort());
  });

  test("every default it shows is the one the bot uses", () => {
    const defaults = envSchema.parse({});
    for (const line of readFileSync(new URL("../../.env.example", import.meta.url), "utf8").split("\n")) {
      const m = /^([A-Z_]+)=(.+)$/.exec(line);
      if (!m) continue;
      const value = (defaults as Record<string, unknown>)[m[1]!];
      expect(String(value), m[1]).toBe(m[2]);
    }
  });
});
