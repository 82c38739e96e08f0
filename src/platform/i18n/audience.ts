import type { Translate, TranslateFor } from "./i18n";

/**
 * Who can read a message: its one person (a private chat), or more (a group,
 * a supergroup, a forum topic, a channel, and every inline-mode message,
 * which anyone in the chat it was placed in may read).
 */
export type Audience = "private" | "group";

/** The audience of a chat by its type; no chat (inline mode) counts as a group. */
export function audienceOfChat(chat: { type: string } | undefined): Audience {
  return chat?.type === "private" ? "private" : "group";
}

/** The audience of a chat by its id: Telegram gives people positive ids, groups and channels negative ones. */
export function audienceOfChatId(chatId: number | null | undefined): Audience {
  return typeof chatId === "number" && chatId > 0 ? "private" : "group";
}

/**
 * The one list of texts that speak of one person's account (balance, credit
 * history, grants, payments) and have a twin fit for a group: the twin keeps
 * the prices and says nothing of the account. Each twin is `<key>-group`
 * (locales/<language>/audience.ftl).
 */
export const groupTwins: ReadonlySet<string> = new Set([
  "cv-line-price",
  "cv-line-price-up-to",
  "cv-line-no-price",
  "gen-insufficient",
  "inline-insufficient",
  "start-welcome-new",
  "start-welcome-back",
]);

/** Texts (and families of texts, by prefix) about one person's account with no twin: never shown to a group. */
const accountOnlyKeys: ReadonlySet<string> = new Set([
  "balance",
  "buy-packs",
  "buy-paid",
  "buy-paid-test",
  "credit-line",
  "user-balance",
  "referral-invite",
  "referral-invite-no-bonus",
  "referral-joined",
  "referral-bonus-paid",
]);
const accountOnlyPrefixes = ["credit-history-", "credit-entry-", "history-", "grant-notice-"];

/** A text about one person's account asked for in a group: a bug of the feature that asked. */
export class AccountTextInGroupError extends Error {
  constructor(readonly key: string) {
    super(`"${key}" tells of one person's account and cannot be shown to a group`);
    this.name = "AccountTextInGroupError";
  }
}

/** Of those families, what says nothing of an account (a /history button pressed in a group finds the result gone). */
const accountFree: ReadonlySet<string> = new Set(["history-gone"]);

function isAccountOnly(key: string): boolean {
  if (accountFree.has(key)) return false;
  return accountOnlyKeys.has(key) || accountOnlyPrefixes.some((p) => key.startsWith(p));
}

/**
 * The key a message for `audience` uses instead of `key`: its group twin in a
 * group, the key itself otherwise. An account text without a twin is refused:
 * thrown outside production (tests, development: a feature that forgets the
 * rule fails), and in production replaced by a neutral line pointing to the
 * private chat, so nothing of the account ever reaches the group.
 */
export function keyFor(audience: Audience, key: string): string {
  if (audience === "private") return key;
  if (groupTwins.has(key)) return `${key}-group`;
  if (!isAccountOnly(key)) return key;
  if (process.env.NODE_ENV !== "production") throw new AccountTextInGroupError(key);
  return "account-in-private-chat-group";
}

/** A translator whose every text fits `audience` (see `keyFor`). */
export function forAudience(audience: Audience, t: Translate): Translate {
  return audience === "private" ? t : (key, vars) => t(keyFor(audience, key), vars);
}

/** `forAudience` for the translators of work done outside an update (status, delivery). */
export function forAudienceFor(audience: Audience, t: TranslateFor): TranslateFor {
  return audience === "private" ? t : (language, key, vars) => t(language, keyFor(audience, key), vars);
}
