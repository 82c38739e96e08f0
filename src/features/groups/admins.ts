import type { Api } from "grammy";
import type { Logger } from "../../platform/lib/logger";
import { isGroupChat } from "../../platform/telegram/chat-kind";
import { classifyTelegramError } from "../../platform/telegram/telegram-error";

export interface AdminCheckOptions {
  /** how long one answer of getChatMember is trusted (default 60 s) */
  ttlMs?: number;
  /** answers kept at most; the oldest go first */
  maxEntries?: number;
  now?: () => number;
}

export interface AdminCheck {
  /**
   * Whether the user is the group's creator or one of its administrators,
   * per getChatMember, trusted for a short while. A refusal by Telegram (the
   * user is not in the chat) means no; so does a failure to ask (not kept).
   */
  isAdmin(api: Api, chatId: number, userId: number, logger: Pick<Logger, "warn">): Promise<boolean>;
}

/**
 * Group admin checks with a small in-process cache keyed by chat and user:
 * a settings screen's presses and every request in an admins-only group would
 * otherwise each cost a getChatMember. A promotion or demotion is seen once
 * the answer expires.
 */
export function createAdminCheck(options: AdminCheckOptions = {}): AdminCheck {
  const ttlMs = options.ttlMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { admin: boolean; until: number }>();

  function remember(key: string, admin: boolean) {
    cache.delete(key);
    cache.set(key, { admin, until: now() + ttlMs });
    while (cache.size > maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
  }

  return {
    async isAdmin(api, chatId, userId, logger) {
      const key = `${chatId}:${userId}`;
      const known = cache.get(key);
      if (known && known.until > now()) return known.admin;
      try {
        const member = await api.getChatMember(chatId, userId);
        const admin = member.status === "creator" || member.status === "administrator";
        remember(key, admin);
        return admin;
      } catch (err) {
        const failure = classifyTelegramError(err);
        if (failure === null) throw err;
        // "user not found", "chat not found": Telegram's answer, and it is no
        if (failure.kind === "rejected" || failure.kind === "chat-unreachable") {
          remember(key, false);
          return false;
        }
        logger.warn({ err, chatId, userId }, "getChatMember failed: treated as not an admin");
        return false;
      }
    },
  };
}

/** What `senderIsGroupAdmin` reads of an update. */
export interface GroupSender {
  api: Api;
  chat?: { id: number; type: string } | undefined;
  from?: { id: number; is_bot: boolean } | undefined;
  msg?: { sender_chat?: { id: number } | undefined } | undefined;
  logger: Pick<Logger, "warn">;
}

/**
 * Whether the sender of this group update is one of the group's admins. An
 * anonymous admin writes as the group itself (`sender_chat` = the chat): only
 * admins can.
 */
export async function senderIsGroupAdmin(ctx: GroupSender, admins: AdminCheck): Promise<boolean> {
  const chat = ctx.chat;
  if (!chat || !isGroupChat(chat)) return false;
  if (ctx.msg?.sender_chat?.id === chat.id) return true;
  if (!ctx.from || ctx.from.is_bot) return false;
  return admins.isAdmin(ctx.api, chat.id, ctx.from.id, ctx.logger);
}
