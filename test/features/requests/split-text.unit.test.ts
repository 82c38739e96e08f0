import { describe, expect, test } from "vitest";
import { messageLimit, splitLongText } from "../../../sandbox/playground/web/split-text";

/** The playground's composer sends a long text as Telegram's clients do: several messages within the limit. */
describe("splitting a long text into messages", () => {
  test("a text within the limit is one message, as typed", () => {
    expect(splitLongText("hello")).toEqual(["hello"]);
    expect(splitLongText("x".repeat(messageLimit))).toEqual(["x".repeat(messageLimit)]);
  });

  test("5,000 characters of words: two messages cut between two words near the limit, nothing lost", () => {
    const text = Array.from({ length: 1000 }, (_, i) => `w${i}`)
      .join(" ")
      .slice(0, 5000);
    const parts = splitLongText(text);
    expect(parts).toHaveLength(2);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(messageLimit);
    expect(parts[0]!.length).toBeGreaterThan(messageLimit * 0.8);
    expect(parts.join(" ")).toBe(text);
  });

  test("a text without spaces is cut at the limit, never inside a surrogate pair", () => {
    expect(splitLongText("x".repeat(9000)).map((p) => p.length)).toEqual([4096, 4096, 808]);
    // one letter first: the limit falls between the two halves of an emoji
    const emoji = `a${"😀".repeat(3000)}`;
    const parts = splitLongText(emoji);
    expect(parts.join("")).toBe(emoji);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(messageLimit);
      expect(part).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });
});
