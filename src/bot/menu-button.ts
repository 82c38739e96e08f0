import type { Api, MiddlewareFn } from "grammy";
import type { MenuButton } from "grammy/types";
import { translate } from "../platform/i18n/i18n";
import { type Language, languageFromCode, languages } from "../platform/i18n/language";
import { messageOf } from "../platform/lib/message-of";
import type { BotContext } from "./context";

/**
 * The chat's menu button opens the Mini App. Telegram keeps one default
 * button and one per private chat, with no language_code (unlike command
 * menus): the default speaks the first language, and a user of another gets
 * their own chat's button in theirs.
 */
function galleryButton(language: Language, miniAppUrl: string): MenuButton {
  return { type: "web_app", text: translate(language, "btn-gallery"), web_app: { url: miniAppUrl } };
}

/** At start-up: the default menu button, the Mini App's (or the command list when there is none). */
export async function setDefaultMenuButton(api: Api, miniAppUrl: string | undefined): Promise<void> {
  await api.setChatMenuButton({
    menu_button: miniAppUrl ? galleryButton(languages[0], miniAppUrl) : { type: "default" },
  });
}

/** A user's chat's button in their language; in the default language the chat follows the default. */
export async function setChatMenuButtonFor(
  api: Api,
  chatId: number,
  language: Language,
  miniAppUrl: string,
): Promise<void> {
  await api.setChatMenuButton({
    chat_id: chatId,
    menu_button: language === languages[0] ? { type: "default" } : galleryButton(language, miniAppUrl),
  });
}

/** Users whose button a process set, at most this many remembered (then forgotten: one call more each). */
const maxButtonsSet = 100_000;

/**
 * At a user's first private update to this process, a user whose language is
 * not the default one gets the menu button in theirs (a deploy may have
 * changed the app's address). A failure is logged, the update handled all the same.
 */
export function chatMenuButtons(miniAppUrl: string | undefined): MiddlewareFn<BotContext> {
  const done = new Set<number>();
  return async (ctx, next) => {
    const { from } = ctx;
    if (!miniAppUrl || ctx.chat?.type !== "private" || !from || done.has(from.id)) return next();
    const language = languageFromCode(ctx.user?.language ?? from.language_code);
    if (done.size >= maxButtonsSet) done.clear();
    done.add(from.id);
    if (language !== languages[0]) {
      await setChatMenuButtonFor(ctx.api, from.id, language, miniAppUrl).catch((err: unknown) =>
        ctx.logger.warn({ userId: from.id, reason: messageOf(err) }, "could not set the user's menu button"),
      );
    }
    return next();
  };
}
