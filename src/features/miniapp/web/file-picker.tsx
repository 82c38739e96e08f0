import { useRef } from "preact/hooks";
import type { Attached } from "./draft";
import { useEnv } from "./shared";

/** Files from the device: the ones attached, each removable, and a button to add more while there is room. */
export function FilePicker(props: {
  label: string;
  accept: string;
  multiple?: boolean;
  items: Attached[];
  full: boolean;
  uploading: boolean;
  testid: string;
  onPick(files: FileList | null): void;
  onRemove(index: number): void;
}) {
  const { w } = useEnv();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div class="field files" data-testid={props.testid}>
      <span>{props.label}</span>
      <ul class="attached">
        {props.items.map((item, i) => (
          <li key={item.input.id + i} data-testid="attached">
            {item.kind === "photo" && item.preview ? (
              <img src={item.preview} alt={item.name} />
            ) : (
              <span class="icon">{item.kind === "audio" ? "🎧" : "🎬"}</span>
            )}
            <button type="button" class="remove" aria-label={w.t("remove")} onClick={() => props.onRemove(i)}>
              ✕
            </button>
          </li>
        ))}
      </ul>
      {props.uploading && <span class="hint">{w.t("uploading")}</span>}
      {!props.full && (
        <button type="button" class="secondary" onClick={() => input.current?.click()}>
          {w.t("add-file")}
        </button>
      )}
      <input
        ref={input}
        type="file"
        hidden
        accept={props.accept}
        multiple={props.multiple}
        data-testid={`${props.testid}-input`}
        onChange={(e) => {
          props.onPick(e.currentTarget.files);
          e.currentTarget.value = "";
        }}
      />
    </div>
  );
}
