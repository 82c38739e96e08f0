import { type FieldProps, promptLength } from "./draft";
import { useEnv } from "./shared";

/**
 * The prompt to type, or, for a 4K version, the note that the service writes it.
 * Nothing typed or pasted is cut: a counter shows the length against the chat's
 * limit, and past it the chat's message says so (Confirm waits until it fits).
 */
export function PromptField({ draft, update, maxLength }: FieldProps & { maxLength: number }) {
  const { w } = useEnv();
  if (draft.upscale)
    return (
      <p class="upscale-note" data-testid="upscale-note">
        {w.t("result-upscaled")}
      </p>
    );
  const length = promptLength(draft.prompt);
  const over = length > maxLength;
  return (
    <label class="field">
      <span>{w.t("label-prompt")}</span>
      <textarea
        data-testid="prompt"
        rows={4}
        dir="auto"
        aria-invalid={over}
        value={draft.prompt}
        onInput={(e) => update({ prompt: e.currentTarget.value })}
      />
      <span class={over ? "counter over" : "counter"} data-testid="prompt-count" data-value={length}>
        <bdi>{w.num(length)}</bdi> / <bdi>{w.num(maxLength)}</bdi>
      </span>
      {over && (
        <span class="error" role="alert" data-testid="prompt-too-long">
          {w.t("prompt-too-long", { length, max: maxLength })}
        </span>
      )}
    </label>
  );
}
