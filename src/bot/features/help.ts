import { Composer } from "grammy";
import type { BotCommand } from "grammy/types";
import { negotiateLanguage, type Translate } from "../../platform/i18n/i18n";
import type { Language } from "../../platform/i18n/language";
import { commandMenus, type MenuSource } from "../commands";
import type { BotContext } from "../context";

/** Who asks for /help, and where: what a feature's part of it may depend on. */
export interface HelpAsk {
  t: Translate;
  language: Language;
  /** a private chat (else a group) */
  inPrivate: boolean;
  /** the bot's @username, without the @ */
  botUsername: string;
}

/** A feature's paragraph of /help (its limits, its prices, how to use it); undefined: nothing to say here. */
export type HelpSection = (ask: HelpAsk) => string | undefined;

/** A /command as the text shows it: isolated in a right-to-left language, or it is drawn "help/". */
export function commandText(language: Language, command: string): string {
  return language === "en" ? `/${command}` : `\u2068/${command}\u2069`;
}

/**
 * The commands of the ☰ menu this person sees in this chat, as `commandMenus`
 * sets them (the same list, so /help and the menu cannot drift): a private
 * chat's (a bot admin's with the admin commands), or a group's, with what only
 * its admins see besides.
 */
function menuOf(
  source: MenuSource,
  where: { userId: number; inPrivate: boolean; language: Language },
): { commands: BotCommand[]; groupAdmins: BotCommand[] } {
  const admin = where.inPrivate && source.adminIds.includes(where.userId);
  const { scopes } = commandMenus(source.extra, admin ? [where.userId] : []).toArgs();
  // the menus' own language (English) is the one set without a language_code
  const inLanguage = (type: string): BotCommand[] =>
    (
      scopes.find(
        (call) =>
          call.scope?.type === type &&
          (call.language_code ?? "en") === where.language &&
          (type !== "chat" || (call.scope?.type === "chat" && call.scope.chat_id === where.userId)),
      )?.commands ?? []
    ).map(({ command, description }) => ({ command, description }));
  if (where.inPrivate) return { commands: inLanguage(admin ? "chat" : "all_private_chats"), groupAdmins: [] };
  const commands = inLanguage("all_group_chats");
  const names = new Set(commands.map((c) => c.command));
  return {
    commands,
    groupAdmins: inLanguage("all_chat_administrators").filter((c) => !names.has(c.command)),
  };
}

/**
 * /help: what the bot does, the commands of this chat's menu (each a /command
 * Telegram makes tappable, with the menu's own description), then each
 * feature's section (limits and prices, inline mode) and, in a private chat,
 * the Gallery (the Mini App behind the menu button).
 */
export function helpFeature(source: MenuSource, sections: readonly HelpSection[]): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command("help", async (ctx) => {
    const language = negotiateLanguage(ctx);
    const inPrivate = ctx.chat.type === "private";
    const t: Translate = (key, vars) => ctx.t(key, vars);
    const line = (c: BotCommand) => `${commandText(language, c.command)} — ${c.description}`;
    const menu = menuOf(source, { userId: ctx.from?.id ?? 0, inPrivate, language });
    const ask: HelpAsk = { t, language, inPrivate, botUsername: ctx.me.username };
    const paragraphs = [
      t("help"),
      [t("help-commands"), ...menu.commands.map(line)].join("\n"),
      menu.groupAdmins.length > 0
        ? [t("help-group-admins"), ...menu.groupAdmins.map(line)].join("\n")
        : undefined,
      ...sections.map((section) => section(ask)),
      inPrivate && source.miniAppUrl ? t("help-gallery", { button: t("btn-gallery") }) : undefined,
    ];
    await ctx.reply(paragraphs.filter((p): p is string => Boolean(p)).join("\n\n"));
  });
  return feature;
}
