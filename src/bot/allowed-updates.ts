import type { Update } from "grammy/types";

/**
 * Every update type the bot serves: Telegram is asked for only these
 * (getUpdates, setWebhook), and any other that still arrives is dropped.
 */
export const allowedUpdates = [
  "message",
  "edited_message",
  "callback_query",
  "inline_query",
  "chosen_inline_result",
  "pre_checkout_query",
  "my_chat_member",
] as const satisfies ReadonlyArray<Exclude<keyof Update, "update_id">>;

export type AllowedUpdate = (typeof allowedUpdates)[number];

const allowed = new Set<string>(allowedUpdates);

/** The update's type when the bot serves it; undefined for any other (or none). */
export function servedType(update: object): AllowedUpdate | undefined {
  const type = Object.keys(update).find((k) => k !== "update_id");
  return type !== undefined && allowed.has(type) ? (type as AllowedUpdate) : undefined;
}
