import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { promptProblem } from "../../../src/domain/generations/prompt-rule";
import { translate } from "../../../src/platform/i18n/i18n";
import { createTestDatabase, type TestDatabase } from "../../support/db";
import { testGenerations } from "../../support/test-generations";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);

describe("a prompt with no letter, digit or emoji is refused, never priced", () => {
  test("the conversations' rule: punctuation alone gets a clear message; any script's words and emoji pass", () => {
    for (const prompt of [".", "?!", " ... ", "—", "→ ←", "©", "* * *", "#"])
      expect({ prompt, problem: promptProblem(prompt, en) }).toEqual({
        prompt,
        problem: en("cv-prompt-no-words"),
      });
    expect(promptProblem("\u200B", en)).toBe(en("cv-prompt-empty"));
    for (const prompt of ["a cat", "گربه", "猫", "42", "R2-D2!"])
      expect(promptProblem(prompt, en)).toBeUndefined();
    // emoji carry meaning: a sunset and a cat, a heart asked as emoji (U+FE0F), a flag, a family
    for (const prompt of ["🌅🐈", "🙂", "❤️", "🇮🇷", "👨‍👩‍👧", "🌊 ⛵️!"])
      expect(promptProblem(prompt, en)).toBeUndefined();
  });

  describe("creating a request (the Mini App's way too) refuses it before anything is held", () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => database?.drop());

    test("'.' is invalid, holds nothing; a real prompt is created", async () => {
      const { ledger, generations } = testGenerations(database.db);
      await ledger.grant({ userId: 77, amount: 100, key: "g77" });
      const request = (prompt: string, key: string) =>
        generations.create({
          key,
          userId: 77,
          language: "en",
          chat: { chatId: 77 },
          params: { operation: "image", prompt, model: "nano-core-2", imageSize: "1:1", numImages: 1 },
        });
      expect(await request(".", "dot")).toEqual({
        ok: false,
        reason: "invalid",
        message: "the prompt has no letter, digit or emoji",
      });
      expect(await ledger.account(77)).toMatchObject({ available: 100, held: 0 });
      expect(await request("a dot", "words")).toMatchObject({ ok: true, created: true });
      expect(await request("🌅🐈", "emoji")).toMatchObject({ ok: true, created: true });
    });
  });
});
