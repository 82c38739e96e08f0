import { CommandGroup } from "@grammyjs/commands";
import type { Api, Bot } from "grammy";
import type { BotCommandScope } from "grammy/types";
import type { Logger } from "../lib/logger";
import { languages } from "../users/language";
import type { BotContext } from "./context";
import { translate } from "./i18n";

/** The always-available commands, in menu order; each has a `cmd-<name>` description in every locale. */
export const baseCommands = ["start", "help", "balance", "language", "cancel"] as const;

/** What bot admins (`ADMIN_IDS`) see besides everyone's commands, in their private chat with the bot. */
export const adminCommands = [
  "stats",
  "user",
  "grant",
  "ban",
  "unban",
  "broadcast",
  "broadcast_cancel",
] as const;

/**
 * The commands that make sense in a group today: requests answered in the
 * group, the balance and help. /start, /language and /history are personal
 * and stay in the private menu.
 */
const groupCommands = new Set(["image", "edit", "video", "dub", "balance", "help", "cancel"]);

/**
 * The menus per scope, each in English (the default for everyone else) and
 * the other languages we speak: the default and private chats get the base
 * and the features' commands; groups (members and their admins alike, as no
 * command is for group admins only) those of them that work in groups; each
 * bot admin, in their own chat, everything plus the admin commands.
 */
export function commandMenus(
  extra: readonly string[],
  adminIds: readonly number[],
): CommandGroup<BotContext> {
  const everyone = [...new Set([...baseCommands, ...extra])];
  const menus = new CommandGroup<BotContext>();
  const scopesOf = (name: string): BotCommandScope[] => {
    const scopes: BotCommandScope[] = [];
    if (everyone.includes(name)) scopes.push({ type: "default" }, { type: "all_private_chats" });
    if (everyone.includes(name) && groupCommands.has(name)) {
      scopes.push({ type: "all_group_chats" }, { type: "all_chat_administrators" });
    }
    for (const chat_id of adminIds) scopes.push({ type: "chat", chat_id });
    return scopes;
  };
  for (const name of [...everyone, ...adminCommands.filter((c) => !everyone.includes(c))]) {
    const command = menus.command(name, translate("en", `cmd-${name}`));
    for (const language of languages) {
      if (language !== "en") command.localize(language, name, translate(language, `cmd-${name}`));
    }
    for (const scope of scopesOf(name)) command.addToScope(scope);
  }
  return menus;
}

export interface SyncCommandsOptions {
  /** bot admins: each gets the admin commands in their own chat */
  adminIds?: readonly number[];
  logger?: Pick<Logger, "warn">;
}

/**
 * Sets the command menus (see `commandMenus`). Call at start-up; features pass
 * their own commands (each with a `cmd-<name>` locale key) in `extra`. An
 * admin's chat that Telegram does not know yet (they never started the bot)
 * is logged and skipped; any other refusal throws.
 */
export async function syncCommands(
  bot: Bot<BotContext> | { api: Api },
  extra: readonly string[] = [],
  options: SyncCommandsOptions = {},
): Promise<void> {
  const { scopes } = commandMenus(extra, options.adminIds ?? []).toArgs();
  for (const { scope, language_code, commands } of scopes) {
    const other = {
      ...(scope ? { scope } : {}),
      ...(language_code ? { language_code } : {}),
    };
    const menu = commands.map(({ command, description }) => ({ command, description }));
    try {
      await bot.api.setMyCommands(menu, other);
    } catch (err) {
      if (scope?.type !== "chat") throw err;
      options.logger?.warn({ err, adminId: scope.chat_id }, "could not set an admin's command menu");
    }
  }
}
