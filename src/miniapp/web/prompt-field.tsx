import type { FieldProps } from "./draft";
import { useEnv } from "./shared";

/** The prompt to type, or, for a 4K version, the note that the service writes it. */
export function PromptField({ draft, update }: FieldProps) {
  const { w } = useEnv();
  return draft.upscale ? (
    <p class="upscale-note" data-testid="upscale-note">
      {w.t("result-upscaled")}
    </p>
  ) : (
    <label class="field">
      <span>{w.t("opt-prompt")}</span>
      <textarea
        data-testid="prompt"
        rows={4}
        maxLength={2000}
        dir="auto"
        value={draft.prompt}
        onInput={(e) => update({ prompt: e.currentTarget.value })}
      />
    </label>
  );
}
