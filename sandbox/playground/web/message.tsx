import type { InlineKeyboardButton, Message } from "grammy/types";
import type { ComponentChildren } from "preact";
import type { MessageView } from "../feed-types";
import { api } from "./api";
import { FormattedText } from "./text";

export interface MessageActions {
  press(view: MessageView, row: number, column: number): void;
  /** the Pay button of an invoice */
  pay(view: MessageView): void;
  /** invoices paid from this page (payKey): they show their receipt instead of Pay */
  paid: Set<string>;
  reply(view: MessageView): void;
  /** a web_app button: Telegram opens its Mini App over the chat */
  openApp(view: MessageView, row: number, column: number): void;
  /** a link button to an invoice link (`t.me/$…`): Telegram opens its payment form */
  openInvoice(slug: string): void;
  pending: Set<string>;
}

function Media({ message }: { message: Message }) {
  if (message.photo) {
    const largest = message.photo.at(-1)!;
    return (
      <img
        class="photo"
        src={api.fileUrl(largest.file_id)}
        width={largest.width}
        height={largest.height}
        alt={message.caption ?? "a picture from the chat"}
        data-testid="photo"
      />
    );
  }
  if (message.video) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: generated video has no caption track
      <video
        class="video"
        src={api.fileUrl(message.video.file_id)}
        controls
        preload="metadata"
        data-testid="video"
      />
    );
  }
  const sound = message.audio ?? message.voice;
  if (sound) {
    const name = message.audio?.title ?? message.audio?.file_name ?? "voice message";
    const file = message.audio?.title ? message.audio.file_name : undefined;
    return (
      <div class="audio" data-testid="audio">
        <div class="file-name">
          🎵 {name} {file ? <small>{file}</small> : null}
        </div>
        {/* biome-ignore lint/a11y/useMediaCaption: generated audio has no caption track */}
        <audio src={api.fileUrl(sound.file_id)} controls preload="metadata" />
      </div>
    );
  }
  if (message.document) {
    const doc = message.document;
    return (
      <a
        class="document"
        href={api.fileUrl(doc.file_id)}
        download={doc.file_name ?? "file"}
        data-testid="document"
      >
        📄 {doc.file_name ?? "file"} <small>{Math.ceil((doc.file_size ?? 0) / 1024)} KB</small>
      </a>
    );
  }
  return null;
}

export const formatPrice = (currency: string, amount: number) =>
  currency === "XTR" ? `⭐️ ${amount}` : `${amount} ${currency}`;

/** The slug of an invoice link (createInvoiceLink's `https://t.me/$<slug>`), which Telegram opens as a payment form. */
const invoiceSlugOf = (url: string) => /^https:\/\/t\.me\/\$([\w-]+)$/.exec(url)?.[1];

export const payKey = (view: MessageView) => `${view.chatId}:${view.id}:pay`;

/** Pay, once: pressed while a payment runs does nothing, and a paid invoice shows that it is. */
export function PayButton({
  payment,
  state,
  label,
  onPay,
}: {
  /** the payment's key in `state` (payKey for an invoice message) */
  payment: string;
  state: Pick<MessageActions, "paid" | "pending">;
  label: string;
  onPay(): void;
}) {
  const paid = state.paid.has(payment);
  const pending = state.pending.has(payment);
  return (
    <button
      type="button"
      class={`key pay${pending ? " pending" : ""}`}
      disabled={paid || pending}
      onClick={onPay}
    >
      {paid ? "✓ Paid" : label}
    </button>
  );
}

/** What Telegram's invoice shows: title, description, price (test Stars), and its Pay button below. */
export function InvoiceCard({
  invoice,
  children,
}: {
  invoice: { title: string; description: string; currency: string; total: number };
  children?: ComponentChildren;
}) {
  return (
    <div class="invoice" data-testid="invoice">
      <div class="invoice-title" dir="auto">
        {invoice.title}
      </div>
      <div class="invoice-description" dir="auto">
        {invoice.description}
      </div>
      <div class="invoice-price">
        <strong>{formatPrice(invoice.currency, invoice.total)}</strong> <span class="test-badge">TEST</span>
      </div>
      {children}
    </div>
  );
}

/** An invoice message: its card, and a Pay button unless the bot gave its own. */
function Invoice({ view, actions }: { view: MessageView; actions: MessageActions }) {
  const invoice = view.message.invoice;
  if (!invoice) return null;
  return (
    <InvoiceCard invoice={{ ...invoice, total: invoice.total_amount }}>
      {view.message.reply_markup ? null : (
        <div class="inline-keyboard">
          <PayButton
            payment={payKey(view)}
            state={actions}
            onPay={() => actions.pay(view)}
            label={`Pay ${formatPrice(invoice.currency, invoice.total_amount)}`}
          />
        </div>
      )}
    </InvoiceCard>
  );
}

function Keyboard({ view, actions }: { view: MessageView; actions: MessageActions }) {
  const rows = view.message.reply_markup?.inline_keyboard ?? [];
  if (rows.length === 0) return null;
  const invoice = view.message.invoice !== undefined;
  return (
    <div class="inline-keyboard">
      {rows.map((row, r) => (
        <div class="row" key={`${view.id}-${r}`}>
          {row.map((button: InlineKeyboardButton, c) =>
            "web_app" in button && button.web_app ? (
              <button
                type="button"
                class="key webapp"
                key={`${r}-${c}`}
                dir="auto"
                data-testid="webapp-button"
                onClick={() => actions.openApp(view, r, c)}
              >
                {button.text}
              </button>
            ) : "url" in button && invoiceSlugOf(button.url) ? (
              <button
                type="button"
                class="key"
                key={`${r}-${c}`}
                dir="auto"
                data-testid="invoice-link-button"
                onClick={() => actions.openInvoice(invoiceSlugOf(button.url)!)}
              >
                {button.text}
              </button>
            ) : "url" in button && button.url ? (
              <a class="key" href={button.url} target="_blank" rel="noreferrer" key={`${r}-${c}`}>
                {button.text} ↗
              </a>
            ) : invoice && "pay" in button && button.pay ? (
              <PayButton
                payment={payKey(view)}
                state={actions}
                onPay={() => actions.pay(view)}
                label={button.text}
                key={`${r}-${c}`}
              />
            ) : (
              <button
                type="button"
                class={`key${actions.pending.has(`${view.chatId}:${view.id}:${r}:${c}`) ? " pending" : ""}`}
                key={`${r}-${c}`}
                dir="auto"
                onClick={() => actions.press(view, r, c)}
              >
                {button.text}
              </button>
            ),
          )}
        </div>
      ))}
    </div>
  );
}

/** One bubble: a message, or an album of consecutive messages sharing media_group_id. */
export function Bubble({
  views,
  senderName,
  outgoing,
  actions,
}: {
  views: MessageView[];
  senderName: string | undefined;
  /** written by the reader: drawn on the right; everyone else's (the bot's, other members') on the left */
  outgoing: boolean;
  actions: MessageActions;
}) {
  const first = views[0]!;
  const withText = views.find((v) => v.message.caption || v.message.text) ?? first;
  const { message } = withText;
  const quoted = first.message.reply_to_message;
  const side = outgoing ? "from-me" : first.fromBot ? "from-bot" : "from-other";
  return (
    <div
      class={`bubble ${side}`}
      data-testid="message"
      data-message-id={first.id}
      data-from={first.fromBot ? "bot" : "user"}
      data-side={outgoing ? "out" : "in"}
    >
      {senderName || first.message.via_bot ? (
        <div class="sender" dir="auto">
          {senderName}
          {first.message.via_bot ? (
            <small class="via" data-testid="via-bot">
              {" "}
              via @{first.message.via_bot.username}
            </small>
          ) : null}
        </div>
      ) : null}
      {quoted ? (
        <div class="quote" dir="auto">
          ↩ {(quoted.text ?? quoted.caption ?? (quoted.photo ? "photo" : "message")).slice(0, 80)}
        </div>
      ) : null}
      <div class={views.length > 1 ? "album" : "media"}>
        {views.map((v) => (
          <Media message={v.message} key={v.id} />
        ))}
      </div>
      <Invoice view={first} actions={actions} />
      {message.text !== undefined ? (
        <div class="text" dir="auto">
          <FormattedText text={message.text} entities={message.entities} />
        </div>
      ) : null}
      {message.caption !== undefined ? (
        <div class="text caption" dir="auto">
          <FormattedText text={message.caption} entities={message.caption_entities} />
        </div>
      ) : null}
      <div class="meta">
        {views.some((v) => v.edited) ? "edited · " : ""}
        {new Date(message.date * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}
        <button type="button" class="reply-link" onClick={() => actions.reply(first)} title="Reply">
          ↩
        </button>
      </div>
      {views.map((v) => (
        <Keyboard view={v} actions={actions} key={`k${v.id}`} />
      ))}
    </div>
  );
}
