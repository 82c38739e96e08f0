import type { Translate } from "../i18n/i18n";
import { hasVisibleCharacter } from "../lib/visible-text";
import { imageParams, promptMaxLength } from "./params";

/** The prompt rule of the stored params (params.ts), so what we accept is what we store. */
const promptSchema = imageParams.shape.prompt;

/**
 * A prompt must say something: at least one letter or digit, in any script.
 * "." or "?!" is visible but describes nothing, and would be priced and paid
 * for all the same. New requests only: rows stored before keep parsing.
 */
export function promptHasWords(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** Why a text cannot be a prompt, as a message for the user; undefined when it can. */
export function promptProblem(text: string, t: Translate): string | undefined {
  if (!hasVisibleCharacter(text)) return t("cv-prompt-empty");
  if (!promptHasWords(text)) return t("cv-prompt-no-words");
  if (promptSchema.safeParse(text).success) return undefined;
  return t("cv-prompt-too-long", { length: String(text.trim().length), max: String(promptMaxLength) });
}
