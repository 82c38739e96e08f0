import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { describeParams, type GenerationParams } from "../../../src/domain/generations/params";
import { syncGeneration } from "../../../src/domain/generations/sync/sync-step";
import { translate } from "../../../src/platform/i18n/i18n";
import { systemClock } from "../../../src/platform/lib/clock";
import type { MediaClient } from "../../../src/platform/media-service/client";
import type { Task } from "../../../src/platform/media-service/schemas";
import { createTestDatabase, type TestDatabase } from "../../support/db";
import { testGenerations } from "../../support/test-generations";

const words = (language: "en" | "fa") => (key: string, vars?: Record<string, string | number>) =>
  translate(language, key, vars);
const dub = (patch: Partial<Extract<GenerationParams, { operation: "dub" }>>): GenerationParams => ({
  v: 1,
  operation: "dub",
  source: { kind: "url", url: "https://files.example/talk.mp3" },
  targetLanguage: "es",
  sourceLanguage: "auto",
  ...patch,
});

describe("a dub's title names the languages, never 'Auto-detect'", () => {
  test("detected but not said which: dubbed into the target; said: from it; chosen: from the chosen one", () => {
    expect(describeParams(dub({}), words("en"))).toBe("Dubbed into Spanish");
    expect(describeParams(dub({ detectedLanguage: "de" }), words("en"))).toBe("German → Spanish");
    expect(describeParams(dub({ sourceLanguage: "en" }), words("en"))).toBe("English → Spanish");
    const fa = describeParams(dub({}), words("fa"));
    expect(fa).toContain("دوبله به");
    expect(fa).toContain("اسپانیایی");
    expect(fa).not.toContain(translate("fa", "cv-lang-auto"));
  });

  describe("the language the service says it heard is kept at completion", () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => database?.drop());

    async function completedDub(sourceLanguage: unknown): Promise<string> {
      const { ledger, generations } = testGenerations(database.db);
      const userId = 9000 + Math.floor(Math.random() * 100_000);
      await ledger.grant({ userId, amount: 100, key: `g${userId}` });
      const created = await generations.create({
        key: `dub-${userId}`,
        userId,
        language: "en",
        chat: { chatId: userId },
        params: dub({ durationSeconds: 30 }),
      });
      if (!created.ok) throw new Error(`not created: ${created.reason}`);
      const id = created.generation.id;
      await generations.startSubmit(id);
      await generations.accept(id, { taskId: `task-${userId}` });
      const task: Task = {
        id: `task-${userId}`,
        status: "completed",
        images: [],
        videos: [],
        audios: ["https://service.example/out.mp3"],
        error: null,
        ...(sourceLanguage === undefined ? {} : { source_language: sourceLanguage }),
      } as Task;
      const media = { getTask: async () => task } as unknown as MediaClient;
      const outcome = await syncGeneration(id, 0, {
        generations,
        media,
        clock: systemClock,
        logger: pino({ level: "silent" }),
        queues: { deliver: async () => {} },
        maxPollIntervalMs: 60_000,
      });
      expect(outcome).toEqual({ kind: "completed", late: false });
      const g = await generations.get(id);
      return describeParams(generations.paramsOf(g!), words("en"));
    }

    test("a task that names the source language: 'German → Spanish'", async () => {
      expect(await completedDub("de")).toBe("German → Spanish");
    });

    test("a task that only echoes 'auto', or says nothing: 'Dubbed into Spanish'", async () => {
      expect(await completedDub("auto")).toBe("Dubbed into Spanish");
      expect(await completedDub(undefined)).toBe("Dubbed into Spanish");
    });
  });
});
