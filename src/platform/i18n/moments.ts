import type { Language } from "./language";

/** Each language's digits 0 to 9, as Intl (and so Fluent's numbers) writes them: Persian ۰ to ۹. */
const digitsOf = new Map<Language, string[]>();

function digits(language: Language): string[] {
  let found = digitsOf.get(language);
  if (!found) {
    const format = new Intl.NumberFormat(language, { useGrouping: false });
    found = Array.from({ length: 10 }, (_, d) => format.format(d));
    digitsOf.set(language, found);
  }
  return found;
}

/** The text with its ASCII digits written in the language's own. */
export function inLanguageDigits(language: Language, text: string): string {
  const own = digits(language);
  return text.replace(/[0-9]/g, (d) => own[Number(d)] ?? d);
}

/**
 * A moment as the chat's lists show it: UTC to the minute, its date
 * ("2026-12-06", Gregorian) and its time ("03:43") apart, so that a
 * right-to-left line reads the date first, in the language's digits.
 */
export function chatMoment(language: Language, at: Date): { date: string; time: string } {
  const [date = "", time = ""] = at.toISOString().slice(0, 16).split("T");
  return { date: inLanguageDigits(language, date), time: inLanguageDigits(language, time) };
}
