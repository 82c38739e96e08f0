import type { Toast } from "./use-playground";

/** The bot's short answers to button presses, each gone after a few seconds. */
export function Toasts({ toasts }: { toasts: Toast[] }) {
  return (
    <div class="toasts">
      {toasts.map((t) => (
        <div class="toast" key={t.id} data-testid="toast">
          {t.text}
        </div>
      ))}
    </div>
  );
}
