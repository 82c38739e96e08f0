import type { MessageView } from "../feed-types";
import { allImages, type Draft } from "./use-playground";

/** The message being answered: one the reader picked (which they may drop), or the bot's that asks for a reply. */
function ReplyingTo({ view, onDrop }: { view: MessageView; onDrop: (() => void) | undefined }) {
  return (
    <div class="replying" dir="auto">
      ↩ Replying to: {(view.message.text ?? "message").slice(0, 60)}
      {onDrop ? (
        <button type="button" onClick={onDrop}>
          ✕
        </button>
      ) : null}
    </div>
  );
}

function Attachments({ files, onDrop }: { files: File[]; onDrop(): void }) {
  return (
    <div class="attachments" data-testid="attachments">
      📎 {files.map((f) => f.name).join(", ")}{" "}
      {allImages(files) && files.length > 1 ? `(album of ${files.length})` : ""}
      <button type="button" onClick={onDrop}>
        ✕
      </button>
    </div>
  );
}

/**
 * Where the reader writes: what they reply to and what they attach, above
 * the line with the menu button's Mini App, ☰ (the bot's commands), 📎,
 * the text and ➤.
 */
export function Composer({
  draft,
  forceReply,
  menuApp,
  onSend,
  onCommands,
  onMenuApp,
}: {
  draft: Draft;
  /** the bot's newest message when it asks for a reply */
  forceReply: MessageView | undefined;
  /** the menu button's label when it opens a Mini App */
  menuApp: string | undefined;
  onSend(text: string): void;
  onCommands(): void;
  onMenuApp(): void;
}) {
  const { text, files, replyTo } = draft;
  const replyingTo = replyTo ?? forceReply;
  return (
    <>
      {replyingTo ? (
        <ReplyingTo view={replyingTo} onDrop={replyTo ? () => draft.setReplyTo(undefined) : undefined} />
      ) : null}
      {files.length > 0 ? <Attachments files={files} onDrop={() => draft.setFiles([])} /> : null}
      <form
        class="composer"
        onSubmit={(e) => {
          e.preventDefault();
          onSend(text);
        }}
      >
        {menuApp !== undefined ? (
          <button type="button" class="menu-app" data-testid="menu-app" dir="auto" onClick={onMenuApp}>
            {menuApp}
          </button>
        ) : null}
        <button type="button" class="menu" data-testid="menu" title="Commands" onClick={onCommands}>
          ☰
        </button>
        <label class="attach" title="Attach photos or files">
          📎
          <input
            ref={draft.fileInput}
            type="file"
            multiple
            data-testid="attach"
            onChange={(e) => draft.setFiles([...((e.target as HTMLInputElement).files ?? [])])}
          />
        </label>
        <input
          class="text-input"
          data-testid="composer"
          placeholder={files.length > 0 ? "Caption" : "Message"}
          value={text}
          onInput={(e) => draft.setText((e.target as HTMLInputElement).value)}
          dir="auto"
        />
        <button type="submit" class="send" data-testid="send">
          ➤
        </button>
      </form>
    </>
  );
}
