import { operations } from "../../../platform/media-service/catalog";
import type { FieldProps } from "./draft";
import { useEnv } from "./shared";

/** The four operations as chips, the chosen one pressed; choosing one leaves a 4K version. */
export function OperationChips({ draft, update }: FieldProps) {
  const { w } = useEnv();
  return (
    <div class="chips">
      {operations.map((o) => (
        <button
          key={o}
          type="button"
          class="chip"
          aria-pressed={draft.operation === o}
          data-testid={`op-${o}`}
          onClick={() => update({ operation: o, upscale: false })}
        >
          {w.op(o)}
        </button>
      ))}
    </div>
  );
}
