import { translateFor } from "../../platform/i18n/i18n";
import { classifyTelegramError } from "../../platform/telegram/telegram-error";
import type { DeliveryRecords } from "../generations/delivery-records";
import { type StatusApi, showStatus } from "../generations/status";
import type { GenerationTransitions } from "../generations/transitions";
import type { Generation } from "../generations/types";
import type { Users } from "./users";

export interface BanDeps {
  users: Pick<Users, "ban">;
  generations: Pick<GenerationTransitions, "cancelQueuedOf"> & Pick<DeliveryRecords, "setStatusShown">;
}

/**
 * A ban, however an admin gives it (/ban, a report's button): the user is
 * banned (middleware/banned.ts then stops their updates, generations.create
 * refuses them), what they still had queued is cancelled and released, and
 * each cancelled request's status message says so. `changed`: false when
 * they were banned already (a race's leftovers are cancelled all the same).
 */
export async function banUser(
  deps: BanDeps,
  api: StatusApi,
  userId: number,
): Promise<{ changed: boolean; cancelled: Generation[] }> {
  const changed = await deps.users.ban(userId);
  const cancelled = await deps.generations.cancelQueuedOf(userId);
  for (const g of cancelled) {
    await showStatus(api, deps.generations, g, translateFor).catch((err: unknown) => {
      // the notice is cosmetic: the cancellation and its release stand
      if (!classifyTelegramError(err)) throw err;
    });
  }
  return { changed, cancelled };
}
