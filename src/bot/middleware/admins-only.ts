import { Composer } from "grammy";
import type { BotContext } from "../context";

/**
 * A composer whose handlers see only the given admins' updates. Anyone else's
 * update passes by untouched, so an admin command from a non-admin reaches the
 * fallback's ordinary "I did not understand that" and learns nothing.
 */
export function adminsOnly(adminIds: readonly number[]): {
  outer: Composer<BotContext>;
  admins: Composer<BotContext>;
} {
  const outer = new Composer<BotContext>();
  const admins = outer.filter((ctx) => ctx.from !== undefined && adminIds.includes(ctx.from.id));
  return { outer, admins };
}
