import type { BotCommand, MenuButton } from "grammy/types";
import { z } from "zod";
import { type ChatState, isGroupChat } from "../chats";
import { badRequest } from "../errors";
import type { Params } from "../params";
import { botCommandsSchema, type CommandScope, commandScopeSchema, menuButtonSchema } from "../schemas";
import type { MethodHandler, World } from "../world";
import { checkWebAppUrl } from "./common";

type ChatScope = Extract<CommandScope, { chat_id: number | string }>;

/**
 * The chat a scope names, checked as Telegram does: one the bot knows (a user
 * who never wrote to it is not), and a group for the per-group scopes.
 */
function scopeChat(w: World, scope: ChatScope): ChatState {
  const state = w.chats.find(scope.chat_id);
  if (!state || (state.chat.type === "private" && !state.started)) throw badRequest("chat not found");
  if (state.chat.type === "channel") throw badRequest("can't change commands in channel chats");
  if (state.chat.type === "private" && scope.type !== "chat") {
    throw badRequest("can't use specified scope in private chats");
  }
  return state;
}

/** A user the bot has seen: in their private chat with it, or in a group it is in. */
function knownUser(w: World, userId: number): boolean {
  return w.chats
    .all()
    .some((c) =>
      c.chat.type === "private"
        ? c.chat.id === userId && c.started
        : c.members.has(userId) || c.former?.has(userId) === true,
    );
}

/** Where a menu is kept in `w.commands`: the scope (its chat by id, never by @username), then `|language`. */
function scopeKey(w: World, scope: CommandScope | undefined): string {
  if (!scope) return "default";
  switch (scope.type) {
    case "chat":
    case "chat_administrators":
      return `${scope.type}:${scopeChat(w, scope).chat.id}`;
    case "chat_member": {
      const chatId = scopeChat(w, scope).chat.id;
      if (!knownUser(w, scope.user_id)) throw badRequest("user not found");
      return `chat_member:${chatId}:${scope.user_id}`;
    }
    default:
      return scope.type;
  }
}

function commandsKey(w: World, p: Params): string {
  const scope = p.json("scope", commandScopeSchema, "bot command scope");
  const language = p.string("language_code") ?? "";
  if (language !== "" && !/^[a-z]{2}$/.test(language)) throw badRequest("LANG_CODE_INVALID");
  return `${scopeKey(w, scope)}|${language}`;
}

/** The scopes whose menu a viewer of a group sees, most specific first (admins get theirs too). */
function groupScopes(state: ChatState, userId: number | undefined): string[] {
  const id = state.chat.id;
  const admin = userId !== undefined && state.roles?.has(userId) === true;
  return [
    ...(userId !== undefined ? [`chat_member:${id}:${userId}`] : []),
    ...(admin ? [`chat_administrators:${id}`] : []),
    `chat:${id}`,
    ...(admin ? ["all_chat_administrators"] : []),
    "all_group_chats",
    "default",
  ];
}

/**
 * The command menu Telegram shows in a chat ("Determining list of commands"
 * in the Bot API): the first menu set along the scopes, each first in the
 * viewer's language, then without one. In a private chat: the chat, all
 * private chats, default. In a group, for `userId`: the member, the chat's
 * administrators, the chat, all chat administrators, all group chats,
 * default (the two administrator scopes for its admins and creator only).
 */
export function commandMenuFor(
  w: World,
  chatId: number,
  options: { userId?: number; language?: string },
): BotCommand[] {
  const state = w.chats.get(chatId);
  const scopes =
    state && isGroupChat(state.chat)
      ? groupScopes(state, options.userId)
      : [`chat:${chatId}`, "all_private_chats", "default"];
  for (const scope of scopes) {
    for (const lang of options.language ? [options.language, ""] : [""]) {
      const found = w.commands.get(`${scope}|${lang}`);
      if (found) return found;
    }
  }
  return [];
}

/** A menu button is the bot's default, or one private chat's: a chat the bot knows, never a group. */
function menuButtonKey(w: World, p: Params): number | "default" {
  if (!p.has("chat_id")) return "default";
  const state = w.chats.find(p.chatId());
  if (!state || (state.chat.type === "private" && !state.started)) throw badRequest("chat not found");
  if (state.chat.type !== "private") throw badRequest("invalid chat_id specified");
  return state.chat.id;
}

/** The menu button a private chat shows: its own, else the bot's default, else the command list. */
export function menuButtonFor(w: World, chatId: number): MenuButton {
  return w.menuButtons.get(chatId) ?? w.menuButtons.get("default") ?? { type: "commands" };
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
    if (button.type === "web_app") {
      if (button.text.length < 1 || button.text.length > 64) throw badRequest("BUTTON_TEXT_INVALID");
      checkWebAppUrl(w, button.web_app.url, "BUTTON_URL_INVALID");
    }
    const key = menuButtonKey(w, p);
    if (button.type === "default") w.menuButtons.delete(key);
    else w.menuButtons.set(key, button as MenuButton);
    return true;
  },

  getChatMenuButton(w, p) {
    const key = menuButtonKey(w, p);
    return key === "default" ? (w.menuButtons.get(key) ?? { type: "commands" }) : menuButtonFor(w, key);
  },
};
