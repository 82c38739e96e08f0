import { useEffect, useRef, useState } from "preact/hooks";
import { api, type InvoiceDetails } from "./api";
import { InvoiceForm, type InvoiceStatus } from "./invoice-form";
import type { MessageActions } from "./message";

/** The Telegram theme the panel hands the app when it asks again (web_app_request_theme). */
const themeOf = (url: string): Record<string, string> => {
  const raw = new URLSearchParams(new URL(url, location.href).hash.slice(1)).get("tgWebAppThemeParams");
  try {
    return raw ? (JSON.parse(raw) as Record<string, string>) : {};
  } catch {
    return {};
  }
};

interface Props {
  url: string;
  title: string;
  user: number;
  /** the page's payment state (what Pay shows) */
  payments: Pick<MessageActions, "paid" | "pending">;
  /** pays an invoice link the way the chat pays its invoices */
  payLink(slug: string): Promise<boolean>;
  onClose(): void;
  /** the client's writing direction (its user's language): right to left, Telegram mirrors the header */
  dir: "ltr" | "rtl";
}

/**
 * A Mini App over the chat, as Telegram's web client opens one: an iframe
 * whose calls arrive as postMessage({eventType, eventData}) and whose events
 * go back the same way. Answered: ready, expand, back button, close, theme and
 * viewport requests, links, and open_invoice (the payment form, then
 * invoice_closed with how it ended).
 */
export function MiniAppPanel({ url, title, user, payments, payLink, onClose, dir }: Props) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [ready, setReady] = useState(false);
  const [back, setBack] = useState(false);
  const [invoice, setInvoice] = useState<{ slug: string; details: InvoiceDetails }>();
  const origin = new URL(url, location.href).origin;

  const emit = (eventType: string, eventData: unknown = {}) =>
    frame.current?.contentWindow?.postMessage(JSON.stringify({ eventType, eventData }), origin);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || typeof event.data !== "string") return;
      let call: { eventType?: unknown; eventData?: unknown };
      try {
        call = JSON.parse(event.data) as typeof call;
      } catch {
        return;
      }
      const data = (call.eventData ?? {}) as Record<string, unknown>;
      switch (call.eventType) {
        case "web_app_ready":
          setReady(true);
          break;
        case "web_app_setup_back_button":
          setBack(data.is_visible === true);
          break;
        case "web_app_close":
          onClose();
          break;
        case "web_app_request_theme":
          emit("theme_changed", { theme_params: themeOf(url) });
          break;
        case "web_app_request_viewport": {
          const box = frame.current?.getBoundingClientRect();
          emit("viewport_changed", {
            height: Math.round(box?.height ?? 0),
            width: Math.round(box?.width ?? 0),
            is_expanded: true,
            is_state_stable: true,
          });
          break;
        }
        case "web_app_open_link":
          if (typeof data.url === "string" && /^https?:\/\//.test(data.url)) window.open(data.url, "_blank");
          break;
        case "web_app_open_invoice":
          if (typeof data.slug === "string") openInvoice(data.slug);
          break;
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [url]);

  function openInvoice(slug: string) {
    api
      .invoiceLink(user, slug)
      .then((details) => setInvoice({ slug, details }))
      .catch(() => emit("invoice_closed", { slug, status: "failed" }));
  }

  function closeInvoice(slug: string, status: InvoiceStatus) {
    setInvoice(undefined);
    emit("invoice_closed", { slug, status });
  }

  return (
    <div class="mini-app" data-testid="mini-app" data-ready={ready ? "true" : "false"}>
      {/* right to left: the back arrow (pointing right) at the title's start, on the right; the close on the left */}
      <div class="mini-app-header" dir={dir}>
        {back ? (
          <button type="button" data-testid="mini-app-back" onClick={() => emit("back_button_pressed")}>
            {dir === "rtl" ? "→" : "←"}
          </button>
        ) : null}
        <strong dir="auto">{title}</strong>
        <button type="button" data-testid="mini-app-close" title="Close" onClick={onClose}>
          ✕
        </button>
      </div>
      <iframe ref={frame} src={url} title={title} data-testid="mini-app-frame" />
      {invoice ? (
        <InvoiceForm
          slug={invoice.slug}
          details={invoice.details}
          payments={payments}
          payLink={payLink}
          onClosed={(status) => closeInvoice(invoice.slug, status)}
        />
      ) : null}
    </div>
  );
}
