/** A group or a supergroup: where group settings and the group rate limit apply. */
export const isGroupChat = (chat: { type: string } | undefined): boolean =>
  chat?.type === "group" || chat?.type === "supergroup";
