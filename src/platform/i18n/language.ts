import { z } from "zod";

/** The languages the bot speaks; the first is the default. */
export const languages = ["en", "fa"] as const;
export type Language = (typeof languages)[number];

export const languageSchema = z.enum(languages);

/** Maps Telegram's `language_code` (an IETF tag such as "fa" or "fa-IR") to a language we speak. */
export function languageFromCode(code: string | undefined): Language {
  const primary = code?.toLowerCase().split(/[-_]/)[0];
  return primary === "fa" ? "fa" : "en";
}
