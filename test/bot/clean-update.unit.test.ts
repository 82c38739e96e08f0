import type { Update } from "grammy/types";
import { describe, expect, test } from "vitest";
import { cleanUpdate } from "../../src/bot/clean-update";

const message = (text: string) =>
  ({
    update_id: 1,
    message: { message_id: 1, date: 0, chat: { id: 1, type: "private", first_name: "A" }, text },
  }) as Update;

describe("cleanUpdate", () => {
  test("a NUL and lone surrogates become U+FFFD; pairs, emoji and escapes-as-text stay", () => {
    const cleaned = cleanUpdate(message("a\u0000b \uD800 c \uDC00 d 😀 e \\u0000"));
    expect(cleaned.message?.text).toBe("a\uFFFDb \uFFFD c \uFFFD d 😀 e \\u0000");
  });

  test("an update with nothing to clean is returned as it is", () => {
    const update = message("a quiet harbour 🌊");
    expect(cleanUpdate(update)).toBe(update);
  });
});
