import type { UserRecord, Users } from "../users/users";
import { asciiDigits } from "./admin-only";

export type TargetLookup =
  | { ok: true; user: UserRecord }
  | { ok: false; problem: "missing" }
  | { ok: false; problem: "unknown"; given: string };

const telegramId = /^\d{1,15}$/;
const username = /^@?[A-Za-z][A-Za-z0-9_]{3,31}$/;

/** `<id|@username>` of a user the bot has seen; an id nobody has used, or garbage, is "unknown". */
export async function findTarget(
  users: Pick<Users, "get" | "findByUsername">,
  word: string | undefined,
): Promise<TargetLookup> {
  if (word === undefined || word === "") return { ok: false, problem: "missing" };
  const given = asciiDigits(word);
  let user: UserRecord | undefined;
  if (telegramId.test(given)) user = await users.get(Number(given));
  else if (username.test(given)) user = await users.findByUsername(given);
  // a name is echoed back to the admin: keep it short
  return user ? { ok: true, user } : { ok: false, problem: "unknown", given: word.slice(0, 40) };
}

/** How a user is named in admin messages: the id, with the @username when there is one. */
export function userLabel(user: Pick<UserRecord, "id" | "username" | "firstName">): string {
  const name = user.username ? `@${user.username}` : (user.firstName ?? "");
  return name === "" ? String(user.id) : `${user.id} (${name})`;
}
