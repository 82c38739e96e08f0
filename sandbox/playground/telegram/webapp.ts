import { sign } from "@tma.js/init-data-node";
import type { User } from "grammy/types";
import type { World } from "./world";

/** The Bot API version and platform Telegram's web client reports to a Mini App. */
export const webAppVersion = "8.0";
export const webAppPlatform = "web";

/** Telegram's web client colours (light and dark), as it hands them to a Mini App. */
export const webAppThemes = {
  light: {
    bg_color: "#ffffff",
    text_color: "#000000",
    hint_color: "#707579",
    link_color: "#3390ec",
    button_color: "#3390ec",
    button_text_color: "#ffffff",
    secondary_bg_color: "#f4f4f5",
    header_bg_color: "#ffffff",
    accent_text_color: "#3390ec",
    section_bg_color: "#ffffff",
    section_header_text_color: "#3390ec",
    subtitle_text_color: "#707579",
    destructive_text_color: "#e53935",
    bottom_bar_bg_color: "#ffffff",
  },
  dark: {
    bg_color: "#212121",
    text_color: "#ffffff",
    hint_color: "#aaaaaa",
    link_color: "#8774e1",
    button_color: "#8774e1",
    button_text_color: "#ffffff",
    secondary_bg_color: "#0f0f0f",
    header_bg_color: "#212121",
    accent_text_color: "#8774e1",
    section_bg_color: "#212121",
    section_header_text_color: "#aaaaaa",
    subtitle_text_color: "#aaaaaa",
    destructive_text_color: "#e53935",
    bottom_bar_bg_color: "#212121",
  },
} as const;
export type WebAppTheme = keyof typeof webAppThemes;

export interface WebAppLaunch {
  /** the page to load: the bot's URL with the launch parameters in its hash */
  url: string;
  /** the signed init data (raw query string), as the app reads it from tgWebAppData */
  initData: string;
}

/**
 * What Telegram's client hands a Mini App it opens for `user`: init data
 * signed with the bot token (the hash a server checks), the user's theme, the
 * version and platform, appended to the URL's hash as the client does.
 */
export function launchWebApp(
  w: World,
  user: User,
  url: string,
  options: { theme?: WebAppTheme; startParam?: string } = {},
): WebAppLaunch {
  const initData = sign(
    {
      query_id: `AAH${w.newQueryId()}`,
      user: {
        id: user.id,
        first_name: user.first_name,
        ...(user.last_name ? { last_name: user.last_name } : {}),
        ...(user.username ? { username: user.username } : {}),
        ...(user.language_code ? { language_code: user.language_code } : {}),
        ...(user.is_premium ? { is_premium: true } : {}),
        allows_write_to_pm: true,
      },
      ...(options.startParam ? { start_param: options.startParam } : {}),
    },
    w.token,
    new Date(w.clock.now()),
  );
  const launch = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: webAppVersion,
    tgWebAppPlatform: webAppPlatform,
    tgWebAppThemeParams: JSON.stringify(webAppThemes[options.theme ?? "light"]),
  });
  const [base, hash] = url.split("#", 2) as [string, string | undefined];
  return { url: `${base}#${hash ? `${hash}&` : ""}${launch}`, initData };
}

/** The slug of an invoice link: `https://t.me/$<slug>` (what createInvoiceLink gives) or `t.me/invoice/<slug>`. */
export function invoiceSlug(link: string): string | undefined {
  const match = /^(?:https?:\/\/)?t\.me\/(?:\$|invoice\/)([\w-]+)$/.exec(link.trim());
  return match?.[1];
}
