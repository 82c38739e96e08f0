import { CommandGroup } from "@grammyjs/commands";
import type { Api, Bot, MiddlewareFn } from "grammy";
import type { BotCommandScope } from "grammy/types";
import { translate } from "../platform/i18n/i18n";
import { type Language, languageFromCode, languages } from "../platform/i18n/language";
import type { Logger } from "../platform/lib/logger";
import { messageOf } from "../platform/lib/message-of";
import type { BotContext } from "./context";
import { setChatMenuButtonFor } from "./menu-button";

/** The always-available commands, in menu order; each has a `cmd-<name>` description in every locale. */
export const baseCommands = ["start", "help", "balance", "language", "cancel"] as const;

/** What bot admins (`ADMIN_IDS`) see besides everyone's commands, in their private chat with the bot. */
export const adminCommands = [
  "stats",
  "user",
  "grant",
  "refund",
  "ban",
  "unban",
  "promo",
  "moderation",
  "broadcast",
  "broadcast_cancel",
] as const;

/** What a group's admins see besides the group commands, in the menu of their groups. */
export const groupAdminCommands = ["groupsettings"] as const;

/**
 * The commands that make sense in a group today: requests answered in the
 * group, the balance and help. /start, /language and /history are personal
 * and stay in the private menu.
 */
const groupCommands = new Set(["image", "edit", "video", "dub", "balance", "help", "cancel"]);

/**
 * The menus per scope, each in English (the default for everyone else) and
 * the other languages we speak: the default and private chats get the base
 * and the features' commands; groups those of them that work in groups, and
 * their admins the group admin commands too; each bot admin, in their own
 * chat, everything plus the admin commands.
 */
export function commandMenus(
  extra: readonly string[],
  adminIds: readonly number[],
): CommandGroup<BotContext> {
  const everyone = [...new Set([...baseCommands, ...extra])];
  const menus = new CommandGroup<BotContext>();
  const scopesOf = (name: string): BotCommandScope[] => {
    if ((groupAdminCommands as readonly string[]).includes(name))
      return [{ type: "all_chat_administrators" }];
    const scopes: BotCommandScope[] = [];
    if (everyone.includes(name)) scopes.push({ type: "default" }, { type: "all_private_chats" });
    if (everyone.includes(name) && groupCommands.has(name)) {
      scopes.push({ type: "all_group_chats" }, { type: "all_chat_administrators" });
    }
    for (const chat_id of adminIds) scopes.push({ type: "chat", chat_id });
    return scopes;
  };
  for (const name of [
    ...everyone,
    ...groupAdminCommands,
    ...adminCommands.filter((c) => !everyone.includes(c)),
  ]) {
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
  /**
   * An admin's stored language (their users row), undefined when the bot has none:
   * their menu is then in it whatever their client's, as /language sets it
   * (`setChosenLanguageMenu`); without one, a menu per client language.
   */
  languageOf?(adminId: number): Promise<Language | undefined>;
  logger?: Pick<Logger, "info" | "warn">;
}

type MenuCall = ReturnType<CommandGroup<BotContext>["toArgs"]>["scopes"][number];

async function setMenu(api: Api, { scope, language_code, commands }: MenuCall): Promise<void> {
  const other = { ...(scope ? { scope } : {}), ...(language_code ? { language_code } : {}) };
  await api.setMyCommands(
    commands.map(({ command, description }) => ({ command, description })),
    other,
  );
}

/** What the menus are made of: the features' commands (see `syncCommands`) and the bot admins. */
export interface MenuSource {
  extra: readonly string[];
  adminIds: readonly number[];
  /** the Mini App: the chat's menu button follows the chosen language too */
  miniAppUrl?: string | undefined;
}

/**
 * One private chat's menu: the menus set in its scope, then its menus per
 * client language deleted (each would win over the one without a
 * language_code for clients in that language).
 */
interface ChatMenu {
  set: MenuCall[];
  deleted: Array<NonNullable<MenuCall["language_code"]>>;
}

/** Runs each call, one refused or not: the first failure is thrown once every call was tried. */
async function eachOnItsOwn(calls: ReadonlyArray<() => Promise<unknown>>): Promise<void> {
  const failures: unknown[] = [];
  for (const call of calls) await call().catch((err: unknown) => failures.push(err));
  if (failures.length > 0) throw failures[0];
}

/** Each menu set on its own (one per client language); the menus it replaces are deleted once all are set. */
async function applyChatMenu(api: Api, chatId: number, menu: ChatMenu): Promise<void> {
  await eachOnItsOwn(menu.set.map((call) => () => setMenu(api, call)));
  await eachOnItsOwn(
    menu.deleted.map(
      (language_code) => () =>
        api.deleteMyCommands({ scope: { type: "chat", chat_id: chatId }, language_code }),
    ),
  );
}

const isChatOf = (call: MenuCall, chatId: number) =>
  call.scope?.type === "chat" && call.scope.chat_id === chatId;

/** An admin's menu per client language (the admin commands too), from `commandMenus`' calls. */
function adminMenu(scopes: readonly MenuCall[], adminId: number): ChatMenu {
  return { set: scopes.filter((call) => isChatOf(call, adminId)), deleted: [] };
}

/**
 * A user's private menu in one language, whatever their client's: their
 * private menu in that language from `commandMenus`' calls (an admin's with
 * the admin commands), set once in their chat's scope without a
 * language_code. An admin's menus per client language are deleted.
 */
function chosenLanguageMenu(
  scopes: readonly MenuCall[],
  userId: number,
  language: Language,
  admin: boolean,
): ChatMenu {
  const privateMenu = (call: MenuCall) =>
    admin ? isChatOf(call, userId) : call.scope?.type === "all_private_chats";
  // the menus' own language (English) is the one without a language_code
  const chosen = scopes.find(
    (call) => privateMenu(call) && (call.language_code ?? languages[0]) === language,
  );
  if (!chosen) throw new Error(`no private menu in ${language}`);
  const scope = { type: "chat", chat_id: userId } as const;
  const deleted = admin
    ? scopes.flatMap((call) => (privateMenu(call) && call.language_code ? [call.language_code] : []))
    : [];
  return { set: [{ scope, commands: chosen.commands }], deleted };
}

/**
 * Sets a user's private-chat menu in the language they chose (/language),
 * whatever their client's language: one menu in their chat's scope, with no
 * language_code. A bot admin's keeps the admin commands, and their start-up
 * menus per client language are deleted, or those would still win over the
 * choice.
 */
export async function setChosenLanguageMenu(
  api: Api,
  userId: number,
  language: Language,
  source: MenuSource,
): Promise<void> {
  const admin = source.adminIds.includes(userId);
  const { scopes } = commandMenus(source.extra, admin ? [userId] : []).toArgs();
  await applyChatMenu(api, userId, chosenLanguageMenu(scopes, userId, language, admin));
}

/** `setChosenLanguageMenu`, its failure only logged: the language is the user's whatever the menu. */
export async function setChosenLanguageMenuOrWarn(
  ctx: BotContext,
  userId: number,
  language: Language,
  source: MenuSource,
): Promise<void> {
  await setChosenLanguageMenu(ctx.api, userId, language, source).catch((err: unknown) =>
    ctx.logger.warn({ userId, reason: messageOf(err) }, "could not set the user's command menu"),
  );
  if (source.miniAppUrl) {
    await setChatMenuButtonFor(ctx.api, userId, language, source.miniAppUrl).catch((err: unknown) =>
      ctx.logger.warn({ userId, reason: messageOf(err) }, "could not set the user's menu button"),
    );
  }
}

/**
 * Admins whose chat menu Telegram refused at start-up (they had not started
 * the bot yet), per bot: set at their first update (`retryAdminMenus`).
 */
const pendingAdminMenus = new Map<string, Map<number, ChatMenu>>();
/** grammY makes an `Api` per update: a bot is known by its token's id part (not the secret). */
const botKey = (api: Api) => api.token.split(":")[0] ?? "";

/**
 * Sets the command menus (see `commandMenus`). Call at start-up; features pass
 * their own commands (each with a `cmd-<name>` locale key) in `extra`. An
 * admin whose language the bot keeps gets their menu in it (see
 * `languageOf`), so a deploy does not undo their /language. Each menu is
 * set on its own: a refused one is logged with the server's words and the
 * others are still set. An admin's chat that Telegram does not know yet is
 * logged and set at the admin's first update.
 */
export async function syncCommands(
  bot: Bot<BotContext> | { api: Api },
  extra: readonly string[] = [],
  options: SyncCommandsOptions = {},
): Promise<void> {
  const adminIds = options.adminIds ?? [];
  const { scopes } = commandMenus(extra, adminIds).toArgs();
  for (const call of scopes) {
    if (call.scope?.type === "chat") continue;
    await setMenu(bot.api, call).catch((err: unknown) =>
      options.logger?.warn(
        { scope: call.scope?.type ?? "default", language: call.language_code, reason: messageOf(err) },
        "could not set a command menu",
      ),
    );
  }
  const pending = new Map<number, ChatMenu>();
  for (const adminId of new Set(adminIds)) {
    const language = await options.languageOf?.(adminId);
    const menu = language ? chosenLanguageMenu(scopes, adminId, language, true) : adminMenu(scopes, adminId);
    try {
      await applyChatMenu(bot.api, adminId, menu);
    } catch (err) {
      // routine (the admin has not started the bot yet): the reason, not the call's whole payload and stack
      options.logger?.info(
        { adminId, reason: messageOf(err) },
        "could not set an admin's command menu: set at their first update",
      );
      pending.set(adminId, menu);
    }
  }
  pendingAdminMenus.set(botKey(bot.api), pending);
}

/** Sets the menu of an admin whose chat was unknown at start-up, at their first update (once). */
export function retryAdminMenus(): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const pending = ctx.from ? pendingAdminMenus.get(botKey(ctx.api)) : undefined;
    const menu = ctx.from ? pending?.get(ctx.from.id) : undefined;
    if (pending && menu && ctx.from) {
      pending.delete(ctx.from.id);
      try {
        await applyChatMenu(ctx.api, ctx.from.id, menu);
      } catch (err) {
        ctx.logger.warn(
          { adminId: ctx.from.id, reason: messageOf(err) },
          "could not set an admin's command menu",
        );
      }
    }
    return next();
  };
}

/** Users whose menu a process re-set, at most this many remembered (then forgotten: one call more each). */
const maxMenusRefreshed = 100_000;

/**
 * Re-sets, at a user's first private update to this bot (this process, this
 * deploy), the menu of a user who chose their language (/language): the one
 * set then is in their chat's scope, so the start-up's menus never reach it,
 * and commands a deploy added or removed would be missing from it for good.
 * Admins' menus are the start-up's. A failure is logged, the update handled
 * all the same.
 */
export function refreshChosenMenus(source: MenuSource): MiddlewareFn<BotContext> {
  const refreshed = new Set<number>();
  return async (ctx, next) => {
    const { from, user } = ctx;
    if (
      ctx.chat?.type === "private" &&
      from &&
      user?.languageChosenAt &&
      !source.adminIds.includes(from.id) &&
      !refreshed.has(from.id)
    ) {
      if (refreshed.size >= maxMenusRefreshed) refreshed.clear();
      refreshed.add(from.id);
      await setChosenLanguageMenuOrWarn(ctx, from.id, languageFromCode(user.language), source);
    }
    return next();
  };
}
