import { describe, expect, test } from "vitest";
import { queuedText, type StatusApi, showStatus, statusView } from "../../../src/domain/generations/status";
import type { Generation } from "../../../src/domain/generations/types";
import type { Wait } from "../../../src/domain/generations/usual-durations";
import { translateFor as t, translate } from "../../../src/platform/i18n/i18n";
import { generationRow } from "../../support/generation-row";

const en = (key: string, vars?: Record<string, string | number>) => translate("en", key, vars);
const pending = (patch: Partial<Generation> = {}) =>
  generationRow({ state: "pending", chatId: 5, statusMessageId: 10, ...patch });
const history = (seconds: number, elapsedSeconds = 0): Wait => ({
  usual: { source: "history", seconds, samples: 12 },
  elapsedSeconds,
});

describe("a waiting status says how long such a request usually takes, and how long it has been", () => {
  test("the median of the history, rounded as people say it", () => {
    const line = (seconds: number) => statusView(pending(), t, history(seconds)).text.split("\n")[1];
    expect(statusView(pending(), t, history(42)).text).toBe(
      `${en("gen-generating")}\n⏱ Usually takes about 40 seconds.`,
    );
    expect(line(1.2)).toBe("⏱ Usually takes about 1 second.");
    expect(line(7.6)).toBe("⏱ Usually takes about 8 seconds.");
    expect(line(58)).toBe("⏱ Usually takes about 1 minute.");
    expect(line(200)).toBe("⏱ Usually takes about 3 minutes.");
  });

  test("before there is history: the service document's range", () => {
    const wait: Wait = { usual: { source: "document", fromSeconds: 30 }, elapsedSeconds: 3 };
    expect(statusView(pending({ operation: "video" }), t, wait).text).toBe(
      `${en("gen-generating")}\n⏱ Usually takes 30 seconds to several minutes.`,
    );
    const dub: Wait = { usual: { source: "document", fromSeconds: 60 }, elapsedSeconds: 3 };
    expect(statusView(pending({ operation: "dub" }), t, dub).text).toContain(
      "Usually takes 1 minute to several minutes.",
    );
  });

  test("from the first minute on, how long it has been; nothing to say, no line", () => {
    expect(statusView(pending(), t, history(42, 59)).text.split("\n")).toHaveLength(2);
    expect(statusView(pending(), t, history(42, 61)).text).toBe(
      `${en("gen-generating")}\n⏱ Usually takes about 40 seconds. It has been 1 minute so far.`,
    );
    expect(statusView(pending(), t, { usual: undefined, elapsedSeconds: 150 }).text).toBe(
      `${en("gen-generating")}\n⏱ It has been 2 minutes so far.`,
    );
    expect(statusView(pending(), t, { usual: undefined, elapsedSeconds: 20 }).text).toBe(
      en("gen-generating"),
    );
  });

  test("queued and a dub's part say it too; a status that no longer waits does not", () => {
    expect(statusView(pending({ state: "queued" }), t, history(42)).text).toContain("Usually takes about");
    expect(statusView(pending({ operation: "dub", partsTotal: 3, partsDone: 1 }), t, history(100)).text).toBe(
      `${en("gen-dubbing-part", { part: 2, total: 3 })}\n⏱ Usually takes about 2 minutes.`,
    );
    expect(statusView(pending({ state: "delivered", charged: 4 }), t, history(42)).text).toBe(
      en("gen-done", { cost: 4 }),
    );
    expect(queuedText(en, 0, { source: "history", seconds: 42, samples: 3 })).toBe(
      `${en("gen-queued")}\n⏱ Usually takes about 40 seconds.`,
    );
    expect(queuedText(en, 0)).toBe(en("gen-queued"));
  });

  test("a request with an estimate for its length says about how long is left, in whole minutes", () => {
    const left = (leftSeconds: number, elapsedSeconds = 0, language = "en") =>
      statusView(pending({ operation: "dub", partsTotal: 11, partsDone: 9, language }), t, {
        ...history(3000, elapsedSeconds),
        leftSeconds,
      })
        // without Fluent's isolation marks around what it put in
        .text.replace(/[\u2068\u2069]/g, "")
        .split("\n")[1];
    expect(left(150)).toBe("⏱ About 3 minutes left.");
    expect(left(80, 61)).toBe("⏱ About 1 minute left. It has been 1 minute so far.");
    expect(left(40)).toBe("⏱ Less than a minute left.");
    expect(left(-5, 200)).toBe("⏱ Taking a little longer than usual. It has been 3 minutes so far.");
    expect(left(150, 0, "fa")).toBe("⏱ حدود ۳ دقیقه دیگر مانده است.");
    expect(left(40, 0, "fa")).toBe("⏱ کمتر از یک دقیقه مانده است.");
  });

  test("in Persian, in Persian words and digits", () => {
    const text = statusView(pending({ language: "fa" }), t, history(42, 130)).text;
    expect(text).toContain("معمولاً حدود");
    expect(text).toContain("۴۰");
    expect(text).toContain("۲");
    expect(text).not.toMatch(/[0-9]/);
  });

  test("polled every 5 s for 10 minutes, the status is edited about once a minute, never every poll", async () => {
    const edits: string[] = [];
    const api = {
      editMessageText: async (_chat: number, _message: number, text: string) => void edits.push(text),
    } as unknown as StatusApi;
    const start = Date.parse("2026-11-01T12:00:00Z");
    let g = pending({ createdAt: new Date(start) });
    let now = start;
    const records = {
      setStatusShown: async (_id: string, text: string | null) => {
        g = { ...g, statusShown: text };
      },
      waitOf: async (row: Pick<Generation, "createdAt">): Promise<Wait> => ({
        usual: { source: "history", seconds: 42, samples: 9 },
        elapsedSeconds: (now - row.createdAt.getTime()) / 1000,
      }),
    };
    for (; now <= start + 600_000; now += 5_000) await showStatus(api, records, g, t);
    // the first status, then one per minute passed
    expect(edits).toHaveLength(11);
    expect(edits.at(-1)).toContain("It has been 10 minutes so far.");
  });
});
