import {
  type EventListener,
  isIframe,
  off,
  on,
  postEvent,
  retrieveLaunchParams,
  retrieveRawInitData,
  setTargetOrigin,
} from "@tma.js/bridge";

/**
 * Everything the page says to and hears from Telegram's client, through
 * @tma.js/bridge (the documented web_app_* methods and events). Outside
 * Telegram (a plain browser tab) the calls do nothing.
 */

type Theme = Record<string, string | undefined>;

export interface Launch {
  /** the raw initData query string: every API call carries it */
  initData: string | undefined;
  /** the user's Telegram language code, until the API says which of ours they use */
  languageCode: string | undefined;
  theme: Theme;
  platform: string;
}

function sameOriginParent(): boolean {
  try {
    // Chromium and Safari name the framing page's origin; the playground frames us from our own
    const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
    if (ancestors && ancestors.length > 0) return ancestors[0] === location.origin;
    return document.referrer !== "" && new URL(document.referrer).origin === location.origin;
  } catch {
    return false;
  }
}

export function readLaunch(): Launch {
  // Telegram's web clients frame us from web.telegram.org (the bridge's default target); the
  // playground frames us from this origin and should receive our calls
  if (isIframe() && sameOriginParent()) setTargetOrigin(location.origin);
  try {
    const params = retrieveLaunchParams();
    return {
      initData: retrieveRawInitData(),
      languageCode: params.tgWebAppData?.user?.language_code,
      theme: params.tgWebAppThemeParams ?? {},
      platform: params.tgWebAppPlatform,
    };
  } catch {
    return { initData: undefined, languageCode: undefined, theme: {}, platform: "browser" };
  }
}

/** Telegram's colours as CSS variables (--tg-bg-color, …): the stylesheet falls back to its own. */
export function applyTheme(theme: Theme): void {
  const style = document.documentElement.style;
  for (const [key, value] of Object.entries(theme)) {
    if (value && /^#[0-9a-f]{3,8}$/i.test(value)) style.setProperty(`--tg-${key.replace(/_/g, "-")}`, value);
  }
}

/** false when not inside Telegram (a plain browser tab): nobody to tell */
function call(run: () => void): boolean {
  try {
    run();
    return true;
  } catch {
    return false;
  }
}

export const telegram = {
  ready: () =>
    call(() => {
      postEvent("web_app_ready");
      postEvent("web_app_expand");
    }),
  backButton: (visible: boolean) =>
    call(() => postEvent("web_app_setup_back_button", { is_visible: visible })),
  /** opens an invoice link (from createInvoiceLink); false when it is not one, or there is no Telegram to open it */
  openInvoice(link: string): boolean {
    const slug = invoiceSlug(link);
    return slug !== undefined && call(() => postEvent("web_app_open_invoice", { slug }));
  },
  onBack(listener: () => void): () => void {
    on("back_button_pressed", listener);
    return () => off("back_button_pressed", listener);
  },
  onInvoiceClosed(listener: EventListener<"invoice_closed">): () => void {
    on("invoice_closed", listener);
    return () => off("invoice_closed", listener);
  },
  onThemeChanged(listener: (theme: Theme) => void): () => void {
    const handler: EventListener<"theme_changed"> = (payload) => listener(payload.theme_params);
    on("theme_changed", handler);
    return () => off("theme_changed", handler);
  },
};

/** The slug of https://t.me/$<slug> or …/invoice/<slug>: the forms Telegram's own WebApp.openInvoice takes. */
export function invoiceSlug(link: string): string | undefined {
  try {
    const url = new URL(link);
    if (url.protocol !== "https:" || !/^(t|telegram)\.me$/i.test(url.hostname)) return undefined;
    const match = /^\/(?:\$|invoice\/)([\w=-]+)$/.exec(url.pathname);
    return match?.[1];
  } catch {
    return undefined;
  }
}
