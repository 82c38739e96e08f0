import { FluentResource } from "@fluent/bundle";
import { I18n } from "@grammyjs/i18n";
import { describe, expect, test } from "vitest";
import { baseCommands } from "../../src/bot/commands";
import type { BotContext } from "../../src/bot/context";
import {
  i18n,
  localeSource,
  negotiateLanguage,
  rememberBundleMatches,
  translate,
} from "../../src/platform/i18n/i18n";
import { type Language, languages } from "../../src/platform/i18n/language";

const isolation = /[\u2068\u2069]/g;
const plain = (text: string) => text.replace(isolation, "");

/** message id → the variables it uses */
function messages(language: Language): Map<string, string[]> {
  const source = localeSource(language);
  const resource = new FluentResource(source);
  const out = new Map<string, string[]>();
  for (const message of resource.body) {
    const names = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object") {
        const record = node as Record<string, unknown>;
        if (record.type === "var" && typeof record.name === "string") names.add(record.name);
        Object.values(record).forEach(walk);
      }
    };
    walk(message.value);
    out.set(message.id, [...names].sort());
  }
  return out;
}

const required = [
  "start-welcome-new",
  "start-welcome-back",
  "help",
  "balance",
  "language-choose",
  "language-set",
  "cancel-nothing",
  "fallback-unknown",
  "rate-limited",
  "error-generic",
  ...baseCommands.map((c) => `cmd-${c}`),
  "gen-queued",
  "gen-submitting",
  "gen-generating",
  "gen-done",
  "gen-failed",
  "gen-rejected",
  "gen-expired",
  "gen-insufficient",
  "gen-confirm-summary",
  "gen-caption",
  "gen-late-free",
  "btn-confirm",
  "btn-cancel",
  "btn-regenerate",
  "btn-edit-result",
  "op-image",
  "op-edit",
  "op-video",
  "op-dub",
];

describe("locales", () => {
  const en = messages("en");
  const fa = messages("fa");

  test("English and Persian have the same keys with the same variables", () => {
    expect([...fa.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, vars] of en) expect({ key, vars: fa.get(key) }).toEqual({ key, vars });
  });

  test("every key the code and the generation features rely on exists", () => {
    for (const language of languages) {
      const keys = messages(language);
      expect(required.filter((key) => !keys.has(key))).toEqual([]);
    }
  });

  test("generation keys take the variables their callers pass", () => {
    expect(en.get("gen-insufficient")).toEqual(["available", "missing", "price"]);
    expect(en.get("gen-confirm-summary")).toEqual(["operation", "price", "prompt"]);
    expect(en.get("gen-caption")).toEqual(["cost", "prompt"]);
  });

  test("Persian text is Persian, with Persian digits and isolated user text", () => {
    const text = translate("fa", "gen-insufficient", { price: 12, available: 5, missing: 7 });
    expect(plain(text)).toContain("۱۲");
    expect(plain(text)).toContain("اعتبار کافی نیست");
    const caption = translate("fa", "gen-caption", { prompt: "a red lighthouse", cost: 4 });
    expect(caption).toContain("\u2068a red lighthouse\u2069");
  });

  test("English text has no isolation marks", () => {
    const text = translate("en", "gen-confirm-summary", {
      operation: "Image generation",
      prompt: "cat",
      price: 4,
    });
    expect(text).toBe("Image generation\nPrompt: cat\nPrice: 4 credits\n\nConfirm?");
  });

  test("the saved language wins over the Telegram client's language", () => {
    expect(negotiateLanguage({ user: undefined, from: undefined })).toBe("en");
    const from = { id: 1, is_bot: false, first_name: "A", language_code: "fa-IR" };
    expect(negotiateLanguage({ user: undefined, from })).toBe("fa");
    const saved = { language: "en" } as Parameters<typeof negotiateLanguage>[0]["user"];
    expect(negotiateLanguage({ user: saved, from })).toBe("en");
  });
});

describe("remembered bundle matches", () => {
  type Matching = { matchBundles: (locales: string[]) => unknown[] };

  test("the bot's i18n has them installed (the plugin's private method is still there)", () => {
    const fluent = i18n.fluent as unknown as Matching;
    const own = Object.getPrototypeOf(fluent) as Partial<Matching>;
    expect(typeof own.matchBundles).toBe("function");
    expect(fluent.matchBundles).not.toBe(own.matchBundles);
  });

  test("each locale is matched once, and translations are what the plugin gives unremembered", () => {
    const make = () => {
      const fresh = new I18n<BotContext>({ defaultLocale: "en" });
      for (const language of languages) fresh.loadLocaleSync(language, { source: localeSource(language) });
      return fresh;
    };
    const plainI18n = make();
    const remembered = make();
    const fluent = remembered.fluent as unknown as Matching;
    const original = fluent.matchBundles.bind(remembered.fluent);
    const asked: string[] = [];
    fluent.matchBundles = (locales) => {
      asked.push(locales.join(","));
      return original(locales);
    };
    rememberBundleMatches(remembered);

    const locales = [...languages, "de", "fa-IR"];
    for (let round = 0; round < 3; round++)
      for (const locale of locales)
        for (const key of ["balance", "help", "gen-done"])
          expect(remembered.t(locale, key, { available: 7, held: 2 })).toBe(
            plainI18n.t(locale, key, { available: 7, held: 2 }),
          );
    expect(asked.sort()).toEqual([...locales].sort());
  });
});
