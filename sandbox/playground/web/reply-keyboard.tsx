import type { KeyboardButton } from "grammy/types";

/** The bot's reply keyboard above the composer: a button sends its label as the reader's message. */
export function ReplyKeyboard({ rows, onPress }: { rows: KeyboardButton[][]; onPress(label: string): void }) {
  return (
    <div class="reply-keyboard">
      {rows.map((row, r) => (
        <div class="row" key={`rk${r}`}>
          {row.map((b) => {
            const label = typeof b === "string" ? b : b.text;
            return (
              <button type="button" key={label} dir="auto" onClick={() => onPress(label)}>
                {label}
              </button>
            );
          })}
        </div>
      ))}
    </div>
  );
}
