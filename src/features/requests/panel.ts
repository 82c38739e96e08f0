import { InlineKeyboard } from "grammy";
import { navRow, type Screen } from "../../bot/conversations/screen";
import type { Quote } from "../../domain/generations/quote";
import { type Audience, audienceOfChatId } from "../../platform/i18n/audience";
import { panelData } from "../../platform/telegram/callback-data";
import { buyButton } from "../payments";
import { type Choice, type PickLayout, pickFrom } from "./pick";
import { confirmLabel, lacksCredits } from "./summary";

/** One option of a request, changed through a picker (model, ratio, language…). */
export interface Setting<S> {
  /** short id for callback data */
  id: string;
  visible(state: S): boolean;
  /** the panel button, showing the current value */
  button(state: S): string;
  /** the heading of the picker */
  title(state: S): string;
  choices(state: S): Choice[];
  current(state: S): string | undefined;
  apply(state: S, value: string): S;
  layout: PickLayout;
}

/** An on/off option, flipped in place. */
export interface Toggle<S> {
  id: string;
  visible(state: S): boolean;
  button(state: S): string;
  flip(state: S): S;
}

export interface PanelSpec<S> {
  /** the summary of `state` with `price`: the one quote of this showing, which Confirm charges too */
  summary(state: S, price: Quote): string;
  settings: Setting<S>[];
  toggles: Toggle<S>[];
  price(state: S): Quote;
  /** the credits the user has, as the summary shows them: a price above them adds the Buy button */
  available: number;
}

export type PanelOutcome<S> = { kind: "done" } | { kind: "back"; state: S } | { kind: "cancel" };

/**
 * What confirming did: a generation was made; the panel was closed with an
 * explanation and comes back below it (not enough credits…); or the panel is
 * shown again in place with a note (the price changed, creating failed).
 */
export type SubmitOutcome = "done" | "stay" | { note: string };

function panelKeyboard<S>(
  spec: PanelSpec<S>,
  state: S,
  t: Screen["t"],
  price: Quote,
  audience: Audience,
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  // the options, then the toggles, two to a row
  const buttons = [
    ...spec.settings
      .filter((s) => s.visible(state))
      .map((s) => ({ label: s.button(state), data: panelData.open(s.id) })),
    ...spec.toggles
      .filter((s) => s.visible(state))
      .map((s) => ({ label: s.button(state), data: panelData.toggle(s.id) })),
  ];
  for (const [i, { label, data }] of buttons.entries()) {
    if (i > 0 && i % 2 === 0) keyboard.row();
    keyboard.text(label, data);
  }
  keyboard.row().text(confirmLabel(t, price), panelData.confirm());
  // the packs come as a message of their own below; this panel stays, and its Confirm works once bought
  // not in a group: a Buy button there would tell everyone this member is short
  if (audience === "private" && lacksCredits(price, spec.available)) keyboard.row().add(buyButton(t));
  return navRow(keyboard, t, { back: true });
}

/**
 * The summary of a request with its exact price, a button per option and
 * Confirm. The defaults are ready: one tap on Confirm sends them. Options open
 * a picker on the same message and come back here.
 */
export async function runPanel<S>(
  screen: Screen,
  spec: PanelSpec<S>,
  initial: S,
  submit: (state: S, shown: Quote) => Promise<SubmitOutcome>,
): Promise<PanelOutcome<S>> {
  let state = initial;
  let note: string | undefined;
  for (;;) {
    // recorded, so that after a restart with a new price table Confirm still sends the price this panel showed
    const price = await screen.once(() => spec.price(state));
    const summary = spec.summary(state, price);
    await screen.show(
      note ? `${summary}\n\n${note}` : summary,
      panelKeyboard(spec, state, screen.t, price, audienceOfChatId(screen.chatId)),
    );
    note = undefined;
    const action = await screen.nextPress();
    switch (action.kind) {
      case "open": {
        const setting = spec.settings.find((s) => s.id === action.setting && s.visible(state));
        if (!setting) break;
        const picked = await pickFrom(
          screen,
          setting.title(state),
          setting.choices(state),
          setting.current(state),
          setting.layout,
        );
        if (picked.kind === "cancel") return { kind: "cancel" };
        if (picked.kind === "value") state = setting.apply(state, picked.value);
        break;
      }
      case "toggle": {
        const toggle = spec.toggles.find((s) => s.id === action.setting && s.visible(state));
        if (toggle) state = toggle.flip(state);
        break;
      }
      case "confirm": {
        const outcome = await submit(state, price);
        if (outcome === "done") return { kind: "done" };
        if (outcome !== "stay") note = outcome.note;
        break;
      }
      case "back":
        return { kind: "back", state };
      case "cancel":
        return { kind: "cancel" };
    }
  }
}
