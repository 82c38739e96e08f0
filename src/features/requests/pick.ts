import { InlineKeyboard } from "grammy";
import { navRow, type Screen } from "../../bot/conversations/screen";
import { panelData } from "../../platform/telegram/callback-data";
import { back, cancelled, type StepResult, value } from "./steps";

export interface Choice {
  value: string;
  label: string;
}

export interface PickLayout {
  perRow: number;
  perPage: number;
}

export function pickKeyboard(
  choices: Choice[],
  current: string | undefined,
  page: number,
  layout: PickLayout,
  t: Screen["t"],
): InlineKeyboard {
  const pages = Math.max(1, Math.ceil(choices.length / layout.perPage));
  const shown = choices.slice(page * layout.perPage, (page + 1) * layout.perPage);
  const keyboard = new InlineKeyboard();
  shown.forEach((choice, i) => {
    if (i > 0 && i % layout.perRow === 0) keyboard.row();
    const mark = choice.value === current ? "✓ " : "";
    keyboard.text(`${mark}${choice.label}`, panelData.pick(choice.value));
  });
  // only buttons that go somewhere: the page's number is in the title (pickTitle)
  if (page > 0 || page < pages - 1) keyboard.row();
  if (page > 0) keyboard.text(t("cv-btn-prev"), panelData.page(page - 1));
  if (page < pages - 1) keyboard.text(t("cv-btn-next"), panelData.page(page + 1));
  return navRow(keyboard, t, { back: true });
}

/** The picker's title, with the page it shows when the choices take several. */
export function pickTitle(title: string, choices: number, page: number, layout: PickLayout, t: Screen["t"]) {
  const pages = Math.ceil(choices / layout.perPage);
  return pages > 1 ? t("cv-pick-page", { title, page: page + 1, pages }) : title;
}

/**
 * One choice from a list, on the conversation's message, paged when long.
 * Opens on the page of the current value. Back returns to the caller's screen.
 */
export async function pickFrom(
  screen: Screen,
  title: string,
  choices: Choice[],
  current: string | undefined,
  layout: PickLayout,
): Promise<StepResult<string>> {
  const index = choices.findIndex((c) => c.value === current);
  let page = index < 0 ? 0 : Math.floor(index / layout.perPage);
  for (;;) {
    await screen.show(
      pickTitle(title, choices.length, page, layout, screen.t),
      pickKeyboard(choices, current, page, layout, screen.t),
    );
    const action = await screen.nextPress();
    switch (action.kind) {
      case "pick":
        if (choices.some((c) => c.value === action.value)) return value(action.value);
        break;
      case "page":
        page = Math.min(action.page, Math.max(0, Math.ceil(choices.length / layout.perPage) - 1));
        break;
      case "back":
        return back;
      case "cancel":
        return cancelled;
    }
  }
}
