import { InlineKeyboard } from "grammy";
import { imageParams } from "../../generations/params";
import { navRow, type Screen, type Translate } from "./screen";
import { back, cancelled, type StepResult, value } from "./steps";

/** The prompt rule of the stored params (generations/params.ts), so what we accept is what we store. */
const promptSchema = imageParams.shape.prompt;
export const promptMaxLength = 2000;

/** Why a text cannot be a prompt, as a message for the user; undefined when it can. */
export function promptProblem(text: string, t: Translate): string | undefined {
  if (promptSchema.safeParse(text).success) return undefined;
  const length = text.trim().length;
  return length === 0
    ? t("cv-prompt-empty")
    : t("cv-prompt-too-long", { length: String(length), max: String(promptMaxLength) });
}

/** Asks for a description in any language; a wrong answer is explained and asked again. */
export async function askPrompt(
  screen: Screen,
  question: string,
  options: { back: boolean },
): Promise<StepResult<string>> {
  const { t } = screen;
  await screen.ask(question, navRow(new InlineKeyboard(), t, options));
  for (;;) {
    const event = await screen.next();
    if (event.type === "button") {
      if (event.action.kind === "cancel") return cancelled;
      if (event.action.kind === "back" && options.back) return back;
      continue;
    }
    const text = event.ctx.message?.text;
    if (text === undefined) {
      await screen.notice(t(event.ctx.message?.sticker ? "cv-prompt-sticker" : "cv-prompt-not-text"));
      continue;
    }
    const problem = promptProblem(text, t);
    if (problem) {
      await screen.notice(problem);
      continue;
    }
    return value(text.trim());
  }
}
