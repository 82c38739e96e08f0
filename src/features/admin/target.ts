import type { Message } from "grammy/types";
import type { UserRecord, Users } from "../../domain/users/users";
import type { Translate } from "../../platform/i18n/i18n";
import { asciiDigits } from "../../platform/lib/command-words";

export type TargetLookup =
  | { ok: true; user: UserRecord }
  | { ok: false; problem: "missing" }
  /** nobody by that id or name; `like`: users whose username starts with it */
  | { ok: false; problem: "unknown"; given: string; like: UserRecord[] }
  /** a first name that several users share */
  | { ok: false; problem: "several"; given: string; candidates: UserRecord[] }
  /** a forward from someone who hides their account: Telegram gives only the name */
  | { ok: false; problem: "hidden"; given: string }
  /** a forward from a chat or channel, not from a person */
  | { ok: false; problem: "not-a-person" };

const telegramId = /^\d{1,15}$/;
const username = /^@?[A-Za-z][A-Za-z0-9_]{3,31}$/;
/** how many namesakes or look-alikes an answer lists */
const listed = 5;

/** The message the command answers, if it is a forward: whose it was. */
type Replied = Pick<Message, "forward_origin"> | undefined;

/**
 * Whom an admin command names: `<id|@username|first name>` of a user the bot
 * has seen, or else (no word) the sender of the forwarded message the command
 * replies to. A first name counts only when one user has it.
 */
export async function findTarget(
  users: Pick<Users, "get" | "findByUsername" | "findByName">,
  word: string | undefined,
  replied?: Replied,
): Promise<TargetLookup> {
  if (word === undefined || word === "") return fromForward(users, replied?.forward_origin);
  const given = asciiDigits(word);
  // a name is echoed back to the admin: keep it short
  const echo = word.slice(0, 40);
  if (telegramId.test(given)) {
    const user = await users.get(Number(given));
    return user ? { ok: true, user } : { ok: false, problem: "unknown", given: echo, like: [] };
  }
  if (username.test(given)) {
    const user = await users.findByUsername(given);
    if (user) return { ok: true, user };
  }
  const named = await users.findByName(given.slice(0, 64), listed * 2);
  const lowered = given.toLowerCase();
  const namesakes = named.filter((u) => u.firstName?.toLowerCase() === lowered);
  // "@name" asks for a username: a first name is never taken for it
  if (!given.startsWith("@") && namesakes.length === 1) return { ok: true, user: namesakes[0]! };
  if (namesakes.length > 1)
    return { ok: false, problem: "several", given: echo, candidates: namesakes.slice(0, listed) };
  return { ok: false, problem: "unknown", given: echo, like: named.slice(0, listed) };
}

async function fromForward(
  users: Pick<Users, "get">,
  origin: Message["forward_origin"],
): Promise<TargetLookup> {
  switch (origin?.type) {
    case undefined:
      return { ok: false, problem: "missing" };
    case "user": {
      const user = await users.get(origin.sender_user.id);
      return user
        ? { ok: true, user }
        : { ok: false, problem: "unknown", given: String(origin.sender_user.id), like: [] };
    }
    case "hidden_user":
      return { ok: false, problem: "hidden", given: origin.sender_user_name.slice(0, 40) };
    default:
      return { ok: false, problem: "not-a-person" };
  }
}

/** A user in a list of candidates: what to type for them, and the name they go by. */
const candidateLine = (user: UserRecord) =>
  `• ${user.username ? `@${user.username} · ` : ""}${user.id}${user.firstName ? ` · ${user.firstName}` : ""}`;

/**
 * The answer when a lookup found nobody, or several: what was not found and
 * what to send instead. `usage` is the command's own usage line.
 */
export function explainTarget(
  t: Translate,
  found: Exclude<TargetLookup, { ok: true }>,
  usage: string,
): string {
  switch (found.problem) {
    case "missing":
      return t(usage);
    case "several":
      return [
        t("admin-several-users", { given: found.given, count: found.candidates.length }),
        ...found.candidates.map(candidateLine),
        t("admin-target-ways"),
      ].join("\n");
    case "hidden":
      return t("admin-hidden-user", { given: found.given });
    case "not-a-person":
      return t("admin-not-a-person");
    case "unknown":
      return [
        t("admin-unknown-user", { given: found.given }),
        ...(found.like.length > 0 ? [t("admin-did-you-mean"), ...found.like.map(candidateLine)] : []),
        t("admin-target-ways"),
      ].join("\n");
  }
}
