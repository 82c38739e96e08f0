import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createKvStorage } from "../../src/bot/storage";
import { createPgliteDatabase, createTestDatabase, type TestDatabase } from "../support/db";

interface Draft {
  step: string;
  prompt?: string;
  photos: string[];
}

async function collect(keys: Iterable<string> | AsyncIterable<string> | undefined): Promise<string[]> {
  const out: string[] = [];
  if (keys) for await (const key of keys) out.push(key);
  return out.sort();
}

describe.each([
  ["postgres", createTestDatabase],
  ["pglite", createPgliteDatabase],
] as const)("kv storage on %s", (_name, open) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.drop();
  });

  test("reads what was written, overwrites, and deletes", async () => {
    const storage = createKvStorage<Draft>(database.db, "draft:");
    expect(await storage.read("1:2")).toBeUndefined();
    expect(await storage.has?.("1:2")).toBe(false);

    await storage.write("1:2", { step: "prompt", photos: [] });
    expect(await storage.read("1:2")).toEqual({ step: "prompt", photos: [] });

    await storage.write("1:2", {
      step: "confirm",
      prompt: "a red lighthouse «at dusk» 🌅",
      photos: ["a", "b"],
    });
    expect(await storage.read("1:2")).toEqual({
      step: "confirm",
      prompt: "a red lighthouse «at dusk» 🌅",
      photos: ["a", "b"],
    });
    expect(await storage.has?.("1:2")).toBe(true);

    await storage.delete("1:2");
    expect(await storage.read("1:2")).toBeUndefined();
    await storage.delete("1:2");
  });

  test("stores real JSON, not a JSON string inside JSON", async () => {
    const storage = createKvStorage<Draft>(database.db, "shape:");
    await storage.write("k", { step: "x", photos: ["p"] });
    const rows = await database.db.execute<{ kind: string; step: string }>(
      sql`select jsonb_typeof(value) as kind, value->>'step' as step from kv_store where key = 'shape:k'`,
    );
    const row = Array.isArray(rows) ? rows[0] : (rows as { rows: unknown[] }).rows[0];
    expect(row).toEqual({ kind: "object", step: "x" });
  });

  test("keeps prefixes apart and lists only its own keys", async () => {
    const sessions = createKvStorage<{ n: number }>(database.db, "s:");
    const conversations = createKvStorage<{ n: number }>(database.db, "c:");
    await sessions.write("10:10", { n: 1 });
    await sessions.write("-100:7", { n: 2 });
    await conversations.write("10:10", { n: 3 });

    expect(await sessions.read("10:10")).toEqual({ n: 1 });
    expect(await conversations.read("10:10")).toEqual({ n: 3 });
    expect(await collect(sessions.readAllKeys?.())).toEqual(["-100:7", "10:10"]);
    expect(await collect(conversations.readAllKeys?.())).toEqual(["10:10"]);
  });

  test("values of any JSON kind survive, strings included", async () => {
    const strings = createKvStorage<string>(database.db, "str:");
    await strings.write("a", '{"not":"an object"}');
    expect(await strings.read("a")).toBe('{"not":"an object"}');
    const arrays = createKvStorage<number[]>(database.db, "arr:");
    await arrays.write("a", [1, 2, 3]);
    expect(await arrays.read("a")).toEqual([1, 2, 3]);
  });

  test("with a schema, a value that no longer parses reads as missing", async () => {
    const v1 = createKvStorage<{ step: string }>(database.db, "ver:");
    await v1.write("u", { step: "old" });
    const v2 = createKvStorage(database.db, "ver:", z.object({ step: z.string(), version: z.literal(2) }));
    expect(await v2.read("u")).toBeUndefined();
    await v2.write("u", { step: "new", version: 2 });
    expect(await v2.read("u")).toEqual({ step: "new", version: 2 });
  });
});
