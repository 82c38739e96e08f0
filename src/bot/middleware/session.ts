import { type MiddlewareFn, session } from "grammy";
import type { Database } from "../../db/client";
import type { BotContext, SessionData } from "../context";
import { chatUserKey } from "../keys";
import { createKvStorage } from "../storage";

export const sessionPrefix = "session:";

/** Sessions per chat and user, kept in Postgres so every process sees the same state. */
export function persistentSession(db: Database): MiddlewareFn<BotContext> {
  return session<SessionData, BotContext>({
    initial: () => ({ createdAt: Date.now() }),
    storage: createKvStorage<SessionData>(db, sessionPrefix),
    getSessionKey: chatUserKey,
  });
}
