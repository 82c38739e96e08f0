import type { Api } from "grammy";
import type { Users } from "../../domain/users/users";
import type { TranslateFor } from "../../platform/i18n/i18n";
import type { Logger } from "../../platform/lib/logger";
import type { ReferralNotice } from "./hooks";

/** Tells the inviter their bonus was paid, in their language, when they have a private chat with the bot. */
export function referralNotifier(deps: {
  api: Pick<Api, "sendMessage"> | undefined;
  users: Pick<Users, "get" | "reachablePrivately">;
  t: TranslateFor;
  logger: Pick<Logger, "info">;
}) {
  return async (notice: ReferralNotice): Promise<void> => {
    const api = deps.api;
    if (!api || !(await deps.users.reachablePrivately(notice.referrerId))) return;
    const referrer = await deps.users.get(notice.referrerId);
    const referred = await deps.users.get(notice.referredId);
    try {
      await api.sendMessage(
        notice.referrerId,
        deps.t(referrer?.language ?? "en", "referral-bonus-paid", {
          amount: notice.amount,
          name: referred?.firstName ?? "",
        }),
      );
    } catch (err) {
      // the bonus is paid either way; a blocked bot or an outage only loses the note
      deps.logger.info({ err, referrerId: notice.referrerId }, "referral bonus note not sent");
    }
  };
}
