import type { Api, Bot } from "grammy";
import { languages } from "../users/language";
import type { BotContext } from "./context";
import { translate } from "./i18n";

/** The always-available commands, in menu order; each has a `cmd-<name>` description in every locale. */
export const baseCommands = ["start", "help", "balance", "language", "cancel"] as const;

/**
 * Sets the command menu for every language we speak (English as the default
 * for everyone else). Call at start-up; features pass their own commands
 * (each with a `cmd-<name>` locale key) in `extra`.
 */
export async function syncCommands(bot: Bot<BotContext> | { api: Api }, extra: readonly string[] = []) {
  const names = [...baseCommands, ...extra];
  for (const language of languages) {
    const commands = names.map((command) => ({
      command,
      description: translate(language, `cmd-${command}`),
    }));
    await bot.api.setMyCommands(commands, language === "en" ? {} : { language_code: language });
  }
}
