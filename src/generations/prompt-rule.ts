import type { Translate } from "../i18n/i18n";
import { hasVisibleCharacter } from "../lib/visible-text";
import { imageParams, promptMaxLength } from "./params";

/** The prompt rule of the stored params (params.ts), so what we accept is what we store. */
const promptSchema = imageParams.shape.prompt;

/** Why a text cannot be a prompt, as a message for the user; undefined when it can. */
export function promptProblem(text: string, t: Translate): string | undefined {
  if (promptSchema.safeParse(text).success) return undefined;
  const length = text.trim().length;
  return !hasVisibleCharacter(text)
    ? t("cv-prompt-empty")
    : t("cv-prompt-too-long", { length: String(length), max: String(promptMaxLength) });
}
