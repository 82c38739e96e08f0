import type { ConversationFlavor } from "@grammyjs/conversations";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { Context } from "grammy";
import type { Redis } from "ioredis";
import type { UserRecord, Users } from "../domain/users/users";
import type { Config } from "../platform/config/config";
import type { Database } from "../platform/db/client";
import type { Logger } from "../platform/lib/logger";
import type { TransientRetry } from "../platform/telegram/api-transformers";
import type { ShownMessages } from "../platform/telegram/shown-messages";

/** What the kernel is made with: the settings, the logger, the database, the users and Redis (the rate limit). */
export interface BotDeps {
  config: Config;
  logger: Logger;
  db: Database;
  users: Users;
  /** shared across processes: per-user rate limiting */
  redis: Redis;
}

export interface BotContextExtras {
  /** a child of the bot's logger carrying the update id */
  logger: Logger;
  /** the sender's row, set by the registration middleware (undefined before it, and for anonymous updates) */
  user: UserRecord | undefined;
  /** the sender's row as the update's claim read it (undefined for a new person) */
  knownUser: UserRecord | undefined;
  /** the sender's stored conversation (JSON) as the claim read it, until the conversations plugin takes it */
  storedConversation: { json: string | null } | undefined;
  /** what the bot's recent messages show and which presses were answered (no needless calls) */
  shown: ShownMessages;
  /** how a Bot API call that failed in passing is tried again (a conversation's calls too) */
  telegramRetry: TransientRetry;
  /**
   * the conversation's writes, held until the update's outcome: an update kept
   * for Telegram's return drops them, so its replay resumes from the stored state
   */
  conversationWrites: (() => Promise<void>)[];
}

export type BotContext = ConversationFlavor<Context & I18nFlavor & BotContextExtras>;
