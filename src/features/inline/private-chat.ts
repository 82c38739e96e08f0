import type { Users } from "../../domain/users/users";

/** `/start inline`: the deep link of the buttons that send a user of inline mode to start the bot */
export const inlineStartParameter = "inline";
/** The link that opens the user's private chat with the bot, with Start (and `/start inline`) ready. */
export const startLink = (bot: string) => `https://t.me/${bot}?start=${inlineStartParameter}`;

/**
 * Whether the result can be shown in place: it is uploaded to the storage
 * chat, or else to the user's private chat, which needs them to have started
 * the bot (and not blocked it).
 */
export async function canShowInline(
  deps: { users: Pick<Users, "reachablePrivately">; inlineStorageChatId?: number | undefined },
  userId: number,
): Promise<boolean> {
  return deps.inlineStorageChatId !== undefined || (await deps.users.reachablePrivately(userId));
}
