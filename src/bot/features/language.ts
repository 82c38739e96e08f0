import { Composer, InlineKeyboard } from "grammy";
import { type Language, languageSchema } from "../../platform/i18n/language";
import { languageData } from "../../platform/telegram/callback-data";
import { isTelegramFailure } from "../../platform/telegram/telegram-error";
import { type MenuSource, setChosenLanguageMenuOrWarn } from "../commands";
import type { BotContext, BotDeps } from "../context";

/** Each language is offered under its own name, whatever the current language. */
const languageNames: Record<Language, string> = { en: "English", fa: "فارسی" };

function languageKeyboard(): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const language of languageSchema.options) {
    keyboard.text(languageNames[language], languageData.make(language));
  }
  return keyboard;
}

/** /language: the choice is saved, and the user's command menu follows it (made from `menus`). */
export function languageFeature(deps: Pick<BotDeps, "users">, menus: MenuSource): Composer<BotContext> {
  const languageFeature = new Composer<BotContext>();

  languageFeature.command("language", (ctx) =>
    ctx.reply(ctx.t("language-choose"), { reply_markup: languageKeyboard() }),
  );

  languageFeature.callbackQuery(languageData.pattern, async (ctx) => {
    const choice = languageData.parse(ctx.callbackQuery.data);
    if (choice === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("cv-expired-button") });
      return;
    }
    await deps.users.setLanguage(ctx.from.id, choice);
    if (ctx.user) ctx.user = { ...ctx.user, language: choice };
    ctx.i18n.useLocale(choice);
    const done = ctx.t("language-set");
    await ctx.answerCallbackQuery({ text: done });
    // a second tap on the same language edits to the same text: Telegram says "not modified"
    await ctx.editMessageText(done).catch((err: unknown) => {
      if (!isTelegramFailure(err, "not-modified")) throw err;
    });
    // the choice is made whatever happens to the menu
    await setChosenLanguageMenuOrWarn(ctx, ctx.from.id, choice, menus);
  });
  return languageFeature;
}
