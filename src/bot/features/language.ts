import { Composer, GrammyError, InlineKeyboard } from "grammy";
import { type Language, languageSchema } from "../../users/language";
import type { BotContext } from "../context";

/** Each language is offered under its own name, whatever the current language. */
const languageNames: Record<Language, string> = { en: "English", fa: "فارسی" };

const callbackPrefix = "language:";

export function languageKeyboard(): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const language of languageSchema.options) {
    keyboard.text(languageNames[language], `${callbackPrefix}${language}`);
  }
  return keyboard;
}

export const languageFeature = new Composer<BotContext>();

languageFeature.command("language", (ctx) =>
  ctx.reply(ctx.t("language-choose"), { reply_markup: languageKeyboard() }),
);

languageFeature.callbackQuery(new RegExp(`^${callbackPrefix}`), async (ctx) => {
  const choice = languageSchema.safeParse(ctx.callbackQuery.data.slice(callbackPrefix.length));
  if (!choice.success) {
    await ctx.answerCallbackQuery();
    return;
  }
  await ctx.deps.users.setLanguage(ctx.from.id, choice.data);
  if (ctx.user) ctx.user = { ...ctx.user, language: choice.data };
  ctx.i18n.useLocale(choice.data);
  const done = ctx.t("language-set");
  await ctx.answerCallbackQuery({ text: done });
  // a second tap on the same language edits to the same text: Telegram says "not modified"
  await ctx.editMessageText(done).catch((err: unknown) => {
    if (!(err instanceof GrammyError && /not modified/i.test(err.description))) throw err;
  });
});
