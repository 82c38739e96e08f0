import type { BotCommand, MenuButton } from "grammy/types";
import { z } from "zod";
import { badRequest } from "../errors";
import type { Params } from "../params";
import { botCommandsSchema, type CommandScope, commandScopeSchema, menuButtonSchema } from "../schemas";
import type { MethodHandler, World } from "../world";

function scopeKey(scope: CommandScope | undefined): string {
  if (!scope) return "default";
  switch (scope.type) {
    case "chat":
    case "chat_administrators":
      return `${scope.type}:${scope.chat_id}`;
    case "chat_member":
      return `chat_member:${scope.chat_id}:${scope.user_id}`;
    default:
      return scope.type;
  }
}

function commandsKey(w: World, p: Params): string {
  const scope = p.json("scope", commandScopeSchema, "bot command scope");
  if (scope && "chat_id" in scope) w.chats.target(scope.chat_id as number | string);
  const language = p.string("language_code") ?? "";
  if (language !== "" && !/^[a-z]{2}$/.test(language)) throw badRequest("LANG_CODE_INVALID");
  return `${scopeKey(scope)}|${language}`;
}

/**
 * The command menu a user sees in a private chat, by Telegram's order:
 * the chat scope, then all private chats, then default; each first in the
 * user's language, then without one.
 */
export function commandMenuFor(w: World, chatId: number, language: string | undefined): BotCommand[] {
  for (const scope of [`chat:${chatId}`, "all_private_chats", "default"]) {
    for (const lang of language ? [language, ""] : [""]) {
      const found = w.commands.get(`${scope}|${lang}`);
      if (found) return found;
    }
  }
  return [];
}

function profileField(field: "name" | "description" | "short_description", max: number) {
  const setter: MethodHandler = (w, p) => {
    const language = p.string("language_code") ?? "";
    if (language !== "" && !/^[a-z]{2}$/.test(language)) throw badRequest("LANG_CODE_INVALID");
    const value = p.string(field) ?? "";
    if (value.length > max) throw badRequest(`${field.toUpperCase()}_INVALID`);
    if (value === "") w.profile.delete(`${field}|${language}`);
    else w.profile.set(`${field}|${language}`, value);
    return true;
  };
  const getter: MethodHandler = (w, p) => {
    const language = p.string("language_code") ?? "";
    const value = w.profile.get(`${field}|${language}`) ?? w.profile.get(`${field}|`);
    return { [field]: value ?? (field === "name" ? w.botUser.first_name : "") };
  };
  return { setter, getter };
}

const names = profileField("name", 64);
const descriptions = profileField("description", 512);
const shortDescriptions = profileField("short_description", 120);

export const botMethods: Record<string, MethodHandler> = {
  setMyName: names.setter,
  getMyName: names.getter,
  setMyDescription: descriptions.setter,
  getMyDescription: descriptions.getter,
  setMyShortDescription: shortDescriptions.setter,
  getMyShortDescription: shortDescriptions.getter,

  getMe(w) {
    return {
      ...w.botUser,
      can_join_groups: true,
      can_read_all_group_messages: !w.rules.groupPrivacy,
      supports_inline_queries: true,
      can_connect_to_business: false,
      has_main_web_app: false,
    };
  },

  logOut: () => true,
  close: () => true,

  getUpdates(w, p, request) {
    const allowed = p.json("allowed_updates", z.array(z.string()), "allowed_updates");
    return w.updates.getUpdates(
      {
        ...(p.int("offset") !== undefined ? { offset: p.int("offset") } : {}),
        ...(p.int("limit") !== undefined ? { limit: p.int("limit") } : {}),
        ...(p.int("timeout") !== undefined ? { timeout: p.int("timeout") } : {}),
        ...(allowed ? { allowed_updates: allowed } : {}),
      },
      request.signal,
    );
  },

  setWebhook(w, p) {
    const url = p.string("url");
    if (url === undefined) throw badRequest("url is empty");
    const allowed = p.json("allowed_updates", z.array(z.string()), "allowed_updates");
    w.updates.setWebhook({
      url,
      ...(p.string("secret_token") !== undefined ? { secret_token: p.string("secret_token") } : {}),
      ...(p.int("max_connections") !== undefined ? { max_connections: p.int("max_connections") } : {}),
      ...(allowed ? { allowed_updates: allowed } : {}),
      drop_pending_updates: p.bool("drop_pending_updates") ?? false,
    });
    return true;
  },

  deleteWebhook(w, p) {
    w.updates.deleteWebhook(p.bool("drop_pending_updates") ?? false);
    return true;
  },

  getWebhookInfo(w) {
    return w.updates.webhookInfo();
  },

  setMyCommands(w, p) {
    const commands = p.json("commands", botCommandsSchema, "bot commands");
    if (!commands) throw badRequest("commands is empty");
    if (commands.length > w.rules.maxCommands) throw badRequest("BOT_COMMANDS_TOO_MUCH");
    for (const c of commands) {
      if (!/^[a-z0-9_]{1,32}$/.test(c.command)) throw badRequest("BOT_COMMAND_INVALID");
      if (c.description.length < 1 || c.description.length > 256) {
        throw badRequest("BOT_COMMAND_DESCRIPTION_INVALID");
      }
    }
    const key = commandsKey(w, p);
    if (commands.length === 0) w.commands.delete(key);
    else
      w.commands.set(
        key,
        commands.map((c) => ({ command: c.command, description: c.description })),
      );
    return true;
  },

  getMyCommands(w, p) {
    return w.commands.get(commandsKey(w, p)) ?? [];
  },

  deleteMyCommands(w, p) {
    w.commands.delete(commandsKey(w, p));
    return true;
  },

  setChatMenuButton(w, p) {
    const button = p.json("menu_button", menuButtonSchema, "menu button") ?? { type: "default" };
    const key = p.has("chat_id") ? w.chats.target(p.chatId()).chat.id : "default";
    if (button.type === "default") w.menuButtons.delete(key);
    else w.menuButtons.set(key, button as MenuButton);
    return true;
  },

  getChatMenuButton(w, p) {
    const key = p.has("chat_id") ? w.chats.target(p.chatId()).chat.id : "default";
    return (
      w.menuButtons.get(key) ??
      (key === "default" ? { type: "commands" } : (w.menuButtons.get("default") ?? { type: "default" }))
    );
  },
};
