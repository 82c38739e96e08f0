import { describe, expect, test } from "vitest";
import { dubbingLanguages, imageModels, videoModelIds } from "../../src/media/catalog";
import { pickKeyboard } from "../../src/requests/pick";
import { panelData, parsePanelAction } from "../../src/telegram/callback-data";

const t = (key: string) => key;

describe("conversation buttons", () => {
  test("every catalog value makes callback data within Telegram's 64 bytes that parses back", () => {
    const values = [...imageModels, ...videoModelIds, ...dubbingLanguages, "auto", "16:9", "4k", "30"];
    for (const value of values) {
      const data = panelData.pick(value);
      expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
      expect(parsePanelAction(data)).toEqual({ kind: "pick", value });
    }
    expect(parsePanelAction(panelData.open("tl"))).toEqual({ kind: "open", setting: "tl" });
    expect(parsePanelAction(panelData.page(2))).toEqual({ kind: "page", page: 2 });
    expect(parsePanelAction(panelData.confirm())).toEqual({ kind: "confirm" });
  });

  test("foreign or forged data is refused", () => {
    for (const data of [
      "rg:123",
      "cv:",
      "cv:zz",
      "cv:p:",
      "cv:p:a b",
      "cv:g:x",
      "cv:g:",
      `cv:p:${"a".repeat(70)}`,
    ]) {
      expect(parsePanelAction(data)).toBeUndefined();
    }
  });

  test("31 source languages are paged twelve at a time with a page indicator", () => {
    const choices = ["auto", ...dubbingLanguages].map((l) => ({ value: l, label: l }));
    const first = pickKeyboard(choices, "auto", 0, { perRow: 3, perPage: 12 }, t).inline_keyboard;
    const last = pickKeyboard(choices, "auto", 2, { perRow: 3, perPage: 12 }, t).inline_keyboard;
    const picks = (rows: typeof first) =>
      rows.flat().filter((b) => "callback_data" in b && b.callback_data?.startsWith("cv:p:"));
    expect(picks(first)).toHaveLength(12);
    expect(picks(last)).toHaveLength(7);
    expect(first.flat().map((b) => b.text)).toContain("1/3");
    expect(first.flat()[0]?.text).toBe("✓ auto");
  });
});
