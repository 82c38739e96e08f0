import type { InlineQueryResult } from "grammy/types";
import { api, type InlineAnswer } from "./api";

/** What a result shows in the panel: a picture for photos, a line of text for the rest. */
function ResultRow({ result, onPick }: { result: InlineQueryResult; onPick(): void }) {
  const title = "title" in result && result.title ? result.title : undefined;
  const description = "description" in result && result.description ? result.description : undefined;
  if (result.type === "photo" && "photo_file_id" in result) {
    return (
      <button type="button" class="inline-result photo" data-testid="inline-result" onClick={onPick}>
        <img src={api.fileUrl(result.photo_file_id)} alt={title ?? "an earlier picture"} />
      </button>
    );
  }
  const icons: Record<string, string> = {
    article: "📝",
    video: "🎬",
    audio: "🎵",
    voice: "🎤",
    document: "📄",
  };
  const icon = icons[result.type] ?? "•";
  return (
    <button type="button" class="inline-result" data-testid="inline-result" onClick={onPick}>
      <span class="icon">{icon}</span>
      <span class="lines">
        <strong dir="auto">{title ?? result.type}</strong>
        {description ? <small dir="auto">{description}</small> : null}
      </span>
    </button>
  );
}

/**
 * The results of `@bot …` above the composer, as Telegram's client shows
 * them: the bot's button (e.g. "start the bot") first, then each result;
 * picking one sends it into the chat via the bot.
 */
export function InlinePanel({
  answer,
  onPick,
  onButton,
}: {
  answer: InlineAnswer | undefined;
  onPick(resultId: string): void;
  onButton(startParameter: string): void;
}) {
  const photos = answer?.results.filter((r) => r.type === "photo") ?? [];
  const rows = answer?.results.filter((r) => r.type !== "photo") ?? [];
  const startParameter = answer?.button?.start_parameter;
  return (
    <div class="inline-panel" data-testid="inline-results">
      {answer?.button && startParameter ? (
        <button type="button" class="inline-button" onClick={() => onButton(startParameter)}>
          {answer.button.text}
        </button>
      ) : null}
      {rows.map((r) => (
        <ResultRow result={r} key={r.id} onPick={() => onPick(r.id)} />
      ))}
      {photos.length > 0 ? (
        <div class="inline-photos">
          {photos.map((r) => (
            <ResultRow result={r} key={r.id} onPick={() => onPick(r.id)} />
          ))}
        </div>
      ) : null}
      {answer && answer.results.length === 0 && !answer.button ? <div class="empty">No results</div> : null}
      {answer ? null : <div class="empty">Asking the bot…</div>}
    </div>
  );
}
