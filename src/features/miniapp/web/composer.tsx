import { limits } from "../../../platform/media-service/catalog";
import type { Balance, PresetResponse } from "../contract";
import { ComposeStatus } from "./compose-status";
import { ConfirmBar } from "./confirm-bar";
import { FilePicker } from "./file-picker";
import { OperationChips } from "./operation-chips";
import { DubOptions, ImageOptions, VideoOptions } from "./option-fields";
import { PromptField } from "./prompt-field";
import { RequestStatus } from "./request-status";
import { ErrorLine, Loading, useEnv } from "./shared";
import { useComposer } from "./use-composer";

/**
 * The four operations with the chat's options and limits (one catalog), started
 * where the chat's panels start (the remembered options), each choice with its
 * price and the live price from the server's one quote function, files from the
 * device for edit and dubbing, and Confirm; once confirmed, the request's
 * status as the chat shows it, and "Make another".
 */
export function Composer(props: {
  preset: PresetResponse | undefined;
  onPresetUsed(): void;
  balance: Balance | undefined;
  onBalance(balance: Balance): void;
  onBuy(): void;
  /** opens a result (the confirmed request's, once done) */
  onOpen(resultId: string): void;
}) {
  const { w } = useEnv();
  const state = useComposer(props);
  const { draft, update } = state;
  const op = draft.operation;
  const choices = state.quote?.choices ?? {};

  if (!state.start)
    return state.startError === undefined ? (
      <Loading />
    ) : (
      <ErrorLine error={state.startError} onRetry={state.loadStart} />
    );
  return (
    <section class="composer" data-testid="composer">
      <OperationChips draft={draft} update={update} />
      {state.remembered && !draft.upscale && (
        <p class="hint" data-testid="saved-options">
          {w.t("saved-options")}
        </p>
      )}

      {op !== "dub" && <PromptField draft={draft} update={update} maxLength={state.promptMaxLength} />}

      {op === "edit" && (
        <FilePicker
          label={w.t("opt-pictures", { max: limits.editMaxImageUrls })}
          accept="image/png,image/jpeg,image/webp"
          multiple
          items={draft.images}
          full={draft.images.length >= limits.editMaxImageUrls}
          uploading={state.uploading > 0}
          testid="edit-files"
          onPick={(files) => state.attach(files, "images")}
          onRemove={(i) => update({ images: draft.images.filter((_, j) => j !== i) })}
        />
      )}
      {op === "dub" && (
        <FilePicker
          label={w.t("opt-source", { minutes: state.start.dubMaxMinutes })}
          accept="audio/*,video/*"
          items={draft.source ? [draft.source] : []}
          full={draft.source !== undefined}
          uploading={state.uploading > 0}
          testid="dub-file"
          onPick={(files) => state.attach(files, "source")}
          onRemove={() => update({ source: undefined })}
        />
      )}

      {(op === "image" || op === "edit") && !draft.upscale && (
        <ImageOptions draft={draft} update={update} choices={choices} />
      )}
      {op === "video" && <VideoOptions draft={draft} update={update} choices={choices} />}
      {op === "dub" && <DubOptions draft={draft} update={update} />}

      <ConfirmBar
        quote={state.quote}
        balance={props.balance}
        quoting={state.quoting}
        unpriced={state.unpriced}
        price={state.price}
        need={state.need}
        running={state.running}
        canConfirm={state.canConfirm}
        spent={state.spent !== undefined}
        renewing={state.renewing}
        onBuy={props.onBuy}
        onConfirm={state.confirm}
        onAnother={state.makeAnother}
      >
        <ComposeStatus status={state.status} />
        {state.spent !== undefined && (
          <RequestStatus id={state.spent} onOpen={props.onOpen} onBalance={props.onBalance} />
        )}
      </ConfirmBar>
    </section>
  );
}
