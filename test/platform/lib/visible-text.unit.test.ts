import { describe, expect, test } from "vitest";
import { generationParams } from "../../../src/domain/generations/params";
import { hasVisibleCharacter, visibleText } from "../../../src/platform/lib/visible-text";

const imageWith = (prompt: string) => ({
  operation: "image",
  prompt,
  model: "m",
  imageSize: "1:1",
  numImages: 1,
});

describe("visible text", () => {
  test.each([
    ["zero-width space", "\u200B\u200B\u200B"],
    ["joiners, word joiner, BOM", "\u200C\u200D\u2060\uFEFF"],
    ["direction marks and overrides", "\u200E\u200F\u202E\u2066"],
    ["Hangul filler, braille blank, no-break space", "\u3164\u2800\u00A0"],
    ["a lone combining mark", " \u0301 "],
  ])("%s shows nothing", (_name, text) => {
    expect(text.trim()).not.toBe("");
    expect(hasVisibleCharacter(text)).toBe(false);
    expect(generationParams.safeParse(imageWith(text)).success).toBe(false);
  });

  test.each(["a cat", "گربه", "\u200Bcat\u200B", "🐱", "é"])("%j shows something", (text) => {
    expect(hasVisibleCharacter(text)).toBe(true);
    expect(generationParams.safeParse(imageWith(text)).success).toBe(true);
  });

  test("keeps what is visible", () => {
    expect(visibleText("\u200Bmy\u00A0cat\u2060")).toBe("mycat");
  });
});
