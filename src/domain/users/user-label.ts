import type { UserRecord } from "./users";

/** How a user is named in admin messages: the id, with the @username when there is one. */
export function userLabel(user: Pick<UserRecord, "id" | "username" | "firstName">): string {
  const name = user.username ? `@${user.username}` : (user.firstName ?? "");
  return name === "" ? String(user.id) : `${user.id} (${name})`;
}
