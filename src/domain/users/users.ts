import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client";
import { chats, users } from "../../platform/db/schema";
import { type Language, languageFromCode, languageSchema } from "../../platform/i18n/language";
import type { Ledger } from "../credits/ledger";

export type UserRecord = typeof users.$inferSelect;

/** How precisely "last seen" is kept: a user or chat seen within this is not written again. */
const seenEveryMs = 5 * 60_000;
const maxChatsRemembered = 50_000;

/** The parts of a Telegram `User` this service reads. */
export interface TelegramUserLike {
  id: number;
  first_name: string;
  username?: string | undefined;
  language_code?: string | undefined;
}

/** The parts of a Telegram `Chat` this service reads. */
export interface TelegramChatLike {
  id: number;
  type: string;
  title?: string | undefined;
  is_forum?: boolean | undefined;
}

export interface WelcomeResult {
  granted: boolean;
  amount: number;
}

export function createUsers(
  db: Database,
  ledger: Ledger,
  options: { welcomeCredits: number; onGranted?(credits: number): void },
) {
  // chats written lately by this process (id → what was written, when): their row needs no write per update
  const chatsWritten = new Map<number, { fields: string; at: number }>();

  /**
   * Records the user (and the chat, when given) as seen. The language is
   * derived from `language_code` only when the user is first seen; afterwards
   * only `setLanguage` changes it, so an explicit choice sticks. Writing to us
   * again in the private chat proves the user has not blocked the bot, so
   * `blocked_at` is cleared (an inline query or a press elsewhere proves nothing).
   * With `known` (the row as read for this update) nothing is written when
   * nothing changed and the user was seen within `seenEveryMs`: "last seen"
   * is kept to that precision, and most updates write nothing.
   */
  async function touch(
    from: TelegramUserLike,
    chat?: TelegramChatLike,
    known?: UserRecord,
  ): Promise<UserRecord> {
    const profile = { username: from.username ?? null, firstName: from.first_name };
    const unblock = chat?.type === "private";
    const [user] = await Promise.all([
      known && unchanged(known, profile, unblock)
        ? [known]
        : db
            .insert(users)
            .values({ id: from.id, ...profile, language: languageFromCode(from.language_code) })
            .onConflictDoUpdate({
              target: users.id,
              set: { ...profile, lastSeenAt: sql`now()`, ...(unblock ? { blockedAt: null } : {}) },
            })
            .returning(),
      chat ? touchChat(chat) : Promise.resolve(),
    ]);
    const row = user[0];
    if (!row) throw new Error(`users: upsert of user ${from.id} returned no row`);
    return row;
  }

  function unchanged(
    known: UserRecord,
    profile: { username: string | null; firstName: string },
    unblock: boolean,
  ): boolean {
    return (
      known.username === profile.username &&
      known.firstName === profile.firstName &&
      Date.now() - known.lastSeenAt.getTime() < seenEveryMs &&
      !(unblock && known.blockedAt !== null)
    );
  }

  async function touchChat(chat: TelegramChatLike): Promise<void> {
    const fields = { type: chat.type, title: chat.title ?? null, isForum: chat.is_forum ?? false };
    const written = JSON.stringify(fields);
    const last = chatsWritten.get(chat.id);
    if (last && last.fields === written && Date.now() - last.at < seenEveryMs) return;
    await db
      .insert(chats)
      .values({ id: chat.id, ...fields })
      .onConflictDoUpdate({ target: chats.id, set: { ...fields, lastSeenAt: sql`now()` } });
    if (chatsWritten.size >= maxChatsRemembered) chatsWritten.clear();
    chatsWritten.set(chat.id, { fields: written, at: Date.now() });
  }

  async function get(id: number): Promise<UserRecord | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, id));
    return row;
  }

  /** Saves the user's choice, and that they made one; false when the user is unknown. */
  async function setLanguage(id: number, language: Language): Promise<boolean> {
    const lang = languageSchema.parse(language);
    const rows = await db
      .update(users)
      .set({ language: lang, languageChosenAt: sql`now()` })
      .where(eq(users.id, id))
      .returning({ id: users.id });
    return rows.length === 1;
  }

  /** Marks a user who blocked the bot or was deactivated; true when this call changed the row. */
  async function markBlocked(id: number): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ blockedAt: sql`now()` })
      .where(and(eq(users.id, id), isNull(users.blockedAt)))
      .returning({ id: users.id });
    return rows.length === 1;
  }

  /**
   * Whether the bot may write to the user first: they opened a private chat
   * with it (a `chats` row of type private, the user's own id) and have not
   * blocked it since.
   */
  async function reachablePrivately(id: number): Promise<boolean> {
    const [row] = await db
      .select({ id: chats.id })
      .from(chats)
      .innerJoin(users, eq(users.id, chats.id))
      .where(and(eq(chats.id, id), eq(chats.type, "private"), isNull(users.blockedAt)));
    return row !== undefined;
  }

  /** Grants the welcome credits, once ever per user (the ledger key makes a repeat a no-op). */
  async function welcome(id: number): Promise<WelcomeResult> {
    const amount = options.welcomeCredits;
    if (amount <= 0) return { granted: false, amount: 0 };
    const result = await ledger.grant({ userId: id, amount, key: `welcome:${id}`, note: "welcome credits" });
    if (result.applied) options.onGranted?.(amount);
    return { granted: result.applied, amount };
  }

  /** An admin's /ban; true when this call banned the user (false: unknown or banned already). */
  async function ban(id: number): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ bannedAt: sql`now()` })
      .where(and(eq(users.id, id), isNull(users.bannedAt)))
      .returning({ id: users.id });
    return rows.length === 1;
  }

  /** An admin's /unban; true when this call lifted a ban. */
  async function unban(id: number): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ bannedAt: null })
      .where(and(eq(users.id, id), isNotNull(users.bannedAt)))
      .returning({ id: users.id });
    return rows.length === 1;
  }

  /** Whether the user is banned, and the language to tell them in; undefined for an unknown user. */
  async function banState(id: number): Promise<{ banned: boolean; language: string } | undefined> {
    const [row] = await db
      .select({ bannedAt: users.bannedAt, language: users.language })
      .from(users)
      .where(eq(users.id, id));
    return row ? { banned: row.bannedAt !== null, language: row.language } : undefined;
  }

  /** The user with this Telegram username (without the @), ignoring case; the most recently seen wins. */
  async function findByUsername(username: string): Promise<UserRecord | undefined> {
    const [row] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.username}) = lower(${username.replace(/^@/, "")})`)
      .orderBy(sql`${users.lastSeenAt} desc`)
      .limit(1);
    return row;
  }

  /**
   * Users an admin may mean by a name: those whose first name is `name`, and
   * those whose username starts with it (ignoring case), most recently seen first.
   */
  async function findByName(name: string, limit: number): Promise<UserRecord[]> {
    const lowered = name.replace(/^@/, "").toLowerCase();
    const prefix = `${lowered.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return db
      .select()
      .from(users)
      .where(sql`lower(${users.firstName}) = ${lowered} or lower(${users.username}) like ${prefix}`)
      .orderBy(sql`${users.lastSeenAt} desc`)
      .limit(limit);
  }

  return {
    touch,
    get,
    setLanguage,
    markBlocked,
    reachablePrivately,
    welcome,
    ban,
    unban,
    banState,
    findByUsername,
    findByName,
  };
}

export type Users = ReturnType<typeof createUsers>;
