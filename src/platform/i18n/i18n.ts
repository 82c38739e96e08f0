import { readdirSync, readFileSync } from "node:fs";
import { I18n } from "@grammyjs/i18n";
import type { Context } from "grammy";
import { projectPath } from "../lib/project-root";
import { type Language, languageFromCode, languages } from "./language";

/**
 * A language's messages: `locales/<language>.ftl` and then every file of
 * `locales/<language>/`, one per feature, in name order.
 */
export function localeSource(language: Language): string {
  const dir = projectPath("src", "platform", "i18n", "locales", language);
  let parts: string[] = [];
  try {
    parts = readdirSync(dir)
      .filter((f) => f.endsWith(".ftl"))
      .sort();
  } catch {
    parts = [];
  }
  return [
    readFileSync(projectPath("src", "platform", "i18n", "locales", `${language}.ftl`), "utf8"),
    ...parts.map((f) => readFileSync(projectPath("src", "platform", "i18n", "locales", language, f), "utf8")),
  ].join("\n");
}

/** What choosing a language reads of an update: the sender's saved row (once registered) and Telegram's sender. */
type LanguageContext = Context & { user?: { language: string } | undefined };

/**
 * The saved language of the user wins (set by the registration middleware as
 * `ctx.user`); before that, Telegram's `language_code` decides.
 */
export function negotiateLanguage(ctx: Pick<LanguageContext, "user" | "from">): Language {
  return languageFromCode(ctx.user?.language ?? ctx.from?.language_code);
}

export const i18n = new I18n<LanguageContext>({
  defaultLocale: "en",
  localeNegotiator: negotiateLanguage,
});

for (const language of languages) {
  // Unicode isolation marks keep user text (prompts, names) from scrambling a
  // right-to-left sentence; in English they would only be noise.
  i18n.loadLocaleSync(language, {
    source: localeSource(language),
    bundleOptions: { useIsolating: language !== "en" },
  });
}

rememberBundleMatches(i18n);

/**
 * @grammyjs/i18n matches the requested locale against every loaded bundle
 * (@fluent/langneg) on each `t()` call, several times per update. The bundles
 * are all loaded above and never change, so the match for a locale is
 * remembered. It is a private method of the plugin's Fluent: if a release
 * renames it, translations keep working, unremembered (the i18n test notices).
 */
export function rememberBundleMatches<C extends Context>(target: I18n<C>): void {
  const fluent = target.fluent as unknown as { matchBundles?: (locales: string[]) => unknown[] };
  const match = fluent.matchBundles?.bind(target.fluent);
  if (!match) return;
  const matched = new Map<string, unknown[]>();
  fluent.matchBundles = (locales) => {
    const key = locales.join(",");
    let bundles = matched.get(key);
    if (!bundles) {
      bundles = match(locales);
      // the locales asked for are this bot's languages (or a code Telegram sent): few
      if (matched.size < 100) matched.set(key, bundles);
    }
    return bundles;
  };
}

export type TranslationVars = Record<string, string | number>;
/** Text in the language of the one user a handler serves (`ctx.t`). */
export type Translate = (key: string, vars?: TranslationVars) => string;
/** Text in any user's language, for work done outside a handler (the workers). */
export type TranslateFor = (language: string, key: string, vars?: TranslationVars) => string;

/** Translates outside a handler (command menus, the error boundary before i18n ran). */
export function translate(language: Language, key: string, variables?: TranslationVars) {
  return i18n.t(language, key, variables);
}

/** `TranslateFor` over `translate`: a saved language code, English when unknown. */
export const translateFor: TranslateFor = (language, key, vars) =>
  translate(languageFromCode(language), key, vars);
