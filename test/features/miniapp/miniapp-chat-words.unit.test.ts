import { describe, expect, test } from "vitest";
import { chatWordKeys, chatWords } from "../../../src/features/miniapp/chat-words";
import { words } from "../../../src/features/miniapp/web/i18n";
import { translate, translateFor } from "../../../src/platform/i18n/i18n";
import { languages } from "../../../src/platform/i18n/language";
import { dubbingLanguages } from "../../../src/platform/media-service/catalog";

/** The Mini App's words that the chat says too come from the chat's messages, so the two read the same. */
describe("the Mini App speaks the chat's words", () => {
  test("each is one of the chat's messages, with a place for every value (no Fluent error left in it)", () => {
    for (const language of languages) {
      const rendered = chatWords(translateFor, language);
      expect(Object.keys(rendered).sort()).toEqual([...chatWordKeys].sort());
      for (const [key, text] of Object.entries(rendered)) {
        expect({ key, text }).not.toMatchObject({ text: expect.stringMatching(/\{\$|^$/) });
        // a missing message comes back as its own id
        expect({ key, text }).not.toMatchObject({ text: expect.stringMatching(/^[a-z]+(-[a-z]+)+$/) });
      }
    }
  });

  test("the page says what the chat says, numbers included, in English and Persian", () => {
    for (const language of languages) {
      const w = words(language, chatWords(translateFor, language));
      const chat = (message: string, vars: Record<string, string | number> = {}) =>
        translate(language, message, vars);
      expect(w.t("label-aspect")).toBe(chat("cv-label-aspect"));
      expect(w.t("price", { price: 1234, available: 621 })).toBe(
        chat("cv-line-price", { price: 1234, available: 621 }),
      );
      expect(w.t("confirm", { price: 3 })).toBe(chat("cv-btn-confirm", { price: 3 }));
      expect(w.t("cost", { cost: 3 })).toBe(chat("history-cost-charged", { cost: 3 }));
      expect(w.t("choice-price", { label: "alpha-speed", price: 3 })).toBe(
        chat("cv-choice-price", { label: "alpha-speed", price: 3 }),
      );
      for (const code of dubbingLanguages) expect(w.language(code)).toBe(chat(`dub-lang-${code}`));
      expect(w.language("auto")).toBe(chat("cv-lang-auto"));
    }
    // the words the issue names: the chat's "Aspect ratio", and a cost with its unit
    const en = words("en", chatWords(translateFor, "en"));
    expect(en.t("label-aspect")).toBe("Aspect ratio");
    expect(en.t("cost", { cost: 3 })).toBe("3 credits");
  });

  test("the chat's summary lines name the options with the same words", () => {
    expect(translate("en", "cv-line-aspect", { value: "1:1" })).toBe("Aspect ratio: 1:1");
    expect(translate("fa", "cv-line-aspect", { value: "1:1" }).replace(/[\u200f\u2068\u2069]/g, "")).toBe(
      `${translate("fa", "cv-label-aspect")}: 1:1`,
    );
  });
});
