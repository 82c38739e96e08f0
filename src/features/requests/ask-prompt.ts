import { InlineKeyboard } from "grammy";
import { navRow, type Screen } from "../../bot/conversations/screen";
import { promptProblem } from "../../domain/generations/prompt-rule";
import { panelData } from "../../platform/telegram/callback-data";
import { back, cancelled, type StepResult, value } from "./steps";

const exampleValue = "example";

/**
 * Asks for a description in any language; a wrong answer is explained and
 * asked again. With an example, a button takes it: a first try needs no typing.
 */
export async function askPrompt(
  screen: Screen,
  question: string,
  options: { back: boolean; example?: string },
): Promise<StepResult<string>> {
  const { t } = screen;
  const keyboard = new InlineKeyboard();
  if (options.example) keyboard.text(t("cv-btn-example"), panelData.pick(exampleValue));
  await screen.ask(question, navRow(keyboard, t, options));
  for (;;) {
    const event = await screen.next();
    if (event.type === "button") {
      if (event.action.kind === "pick" && event.action.value === exampleValue && options.example) {
        return value(options.example);
      }
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
