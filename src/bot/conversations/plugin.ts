import { setTimeout as delay } from "node:timers/promises";
import { type ConversationData, conversations, type VersionedState } from "@grammyjs/conversations";
import type { Api, Context, MiddlewareFn } from "grammy";
import { z } from "zod";
import type { Users } from "../../domain/users/users";
import type { Database } from "../../platform/db/client";
import {
  cosmeticNeverFails,
  markBlockedUsers,
  readableRefusals,
  retryTransient,
} from "../../platform/telegram/api-transformers";
import { isTelegramAway } from "../../platform/telegram/telegram-link";
import type { BotContext } from "../context";
import { createKvStorage } from "../storage";
import { chatUserKey } from "../update-keys";
import type { Conv } from "./screen";

/** The context's held writes; a context made outside the bot (a test's) gets its list here. */
function held(ctx: Context): (() => Promise<void>)[] {
  const c = ctx as BotContext;
  c.conversationWrites ??= [];
  return c.conversationWrites;
}

const conversationStoragePrefix = "conversation:";

/** Where the conversations of this update's chat and sender are stored; undefined without both. */
export function conversationStorageKey(ctx: Pick<Context, "chatId" | "from">): string | undefined {
  const key = chatUserKey(ctx);
  return key === undefined ? undefined : `${conversationStoragePrefix}${key}`;
}

/**
 * Bump when a conversation changes so that replays stored by the previous
 * release no longer fit the code: those conversations then start afresh
 * instead of replaying into the wrong step.
 */
const conversationVersion = 4;

const storedSchema = z.object({
  version: z.tuple([z.number(), z.union([z.string(), z.number()])]),
  state: z.record(z.string(), z.array(z.unknown())),
}) as unknown as z.ZodType<VersionedState<ConversationData>>;

/**
 * The conversations plugin over Postgres (`kv_store`), per chat and user like
 * the session, so a conversation survives restarts and is shared by every
 * process. Installed before the always-available handlers so /cancel can
 * leave a conversation. Updates without a chat and a user (inline queries,
 * pre-checkout queries) have no conversation and touch no storage. What
 * the plugin writes is held until the update's outcome and dropped when
 * Telegram was away, so the update's replay resumes where it was.
 */
export function conversationsPlugin(db: Database): MiddlewareFn<BotContext> {
  const adapter = createKvStorage(db, conversationStoragePrefix, storedSchema);
  const plugin = conversations<BotContext, Context>({
    storage: {
      type: "context",
      version: conversationVersion,
      adapter: {
        read: (ctx) => {
          const key = chatUserKey(ctx);
          if (key === undefined) return undefined;
          // read with the sender's row by the update's claim (the journal): no read of its own
          const stored = ctx.storedConversation;
          if (stored === undefined) return adapter.read(key);
          ctx.storedConversation = undefined;
          return stored.json === null ? undefined : adapter.decode(stored.json);
        },
        // held until the update's outcome (`journalUpdates` writes them once it is handled)
        write: (ctx, state) => {
          const key = chatUserKey(ctx);
          if (key !== undefined) held(ctx).push(async () => await adapter.write(key, state));
        },
        delete: (ctx) => {
          const key = chatUserKey(ctx);
          if (key !== undefined) held(ctx).push(async () => await adapter.delete(key));
        },
      },
    },
  }) as MiddlewareFn<BotContext>;
  return async (ctx, next) => {
    ctx.conversationWrites = [];
    try {
      await plugin(ctx, next);
    } catch (err) {
      // Telegram away: the update is handled again later, from the state stored before it
      if (!isTelegramAway(err)) await flush(ctx);
      throw err;
    }
    await flush(ctx);
  };
}

async function flush(ctx: BotContext): Promise<void> {
  const writes = ctx.conversationWrites;
  ctx.conversationWrites = [];
  for (const write of writes) await write();
}

const preparedApis = new WeakSet<Api>();

/**
 * The plugin builds a fresh `Api` for every context inside a conversation,
 * without bot.api's transformers: this installs on it (once per `Api`) what
 * every call of the bot needs. Refusals get the Bot API's shape (the server's
 * words kept); a user who blocked the bot is marked, in `external`, so
 * replaying a recorded 403 does not mark again a user who has written since;
 * a call that failed in passing (a lost connection, a 5xx) is tried again,
 * its pauses in `external`, so a replay reads the recorded tries without
 * waiting. Flood waits stay with Screen, for the same reason.
 */
export function conversationApi(users: Pick<Users, "markBlocked">, outer: BotContext) {
  return (conversation: Conv): MiddlewareFn<Context>[] => {
    const markBlocked = markBlockedUsers(
      { markBlocked: (id) => conversation.external(() => users.markBlocked(id)) },
      outer.logger,
    );
    const retry = retryTransient(outer.telegramRetry, (ms, info) =>
      conversation.external(async () => {
        outer.logger.info({ ...info, retryInMs: ms }, "Telegram call failed in passing: trying again");
        await delay(ms);
      }),
    );
    return [
      (ctx, next) => {
        if (!preparedApis.has(ctx.api)) {
          ctx.api.config.use(readableRefusals(), markBlocked, retry, cosmeticNeverFails(outer.logger));
          preparedApis.add(ctx.api);
        }
        return next();
      },
    ];
  };
}
