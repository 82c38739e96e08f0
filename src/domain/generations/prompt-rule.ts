import type { Translate } from "../../platform/i18n/i18n";
import { hasVisibleCharacter } from "../../platform/lib/visible-text";
import { imageParams, promptMaxLength } from "./params";

/** The prompt rule of the stored params (params.ts), so what we accept is what we store. */
const promptSchema = imageParams.shape.prompt;

/**
 * A letter or digit in any script, or an emoji: drawn as a picture by default
 * (🌅, 🐈, flags) or asked to be one with U+FE0F (❤️). Symbols such as "©" or
 * "→" on their own are text, not emoji.
 */
const meaningful = /[\p{L}\p{N}\p{Emoji_Presentation}]|\p{Extended_Pictographic}\uFE0F/u;

/**
 * A prompt must say something: a word or an emoji ("🌅🐈" is a sunset and a
 * cat). "." or "?!" is visible but describes nothing, and would be priced and
 * paid for all the same. New requests only: rows stored before keep parsing.
 */
export function promptHasWords(text: string): boolean {
  return meaningful.test(text);
}

/** Why a text cannot be a prompt, as a message for the user; undefined when it can. */
export function promptProblem(text: string, t: Translate): string | undefined {
  if (!hasVisibleCharacter(text)) return t("cv-prompt-empty");
  if (!promptHasWords(text)) return t("cv-prompt-no-words");
  if (promptSchema.safeParse(text).success) return undefined;
  return t("cv-prompt-too-long", { length: String(text.trim().length), max: String(promptMaxLength) });
}
