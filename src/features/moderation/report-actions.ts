import type { Api } from "grammy";
import { reportRefundKey } from "../../domain/credits/entry-keys";
import type { Ledger } from "../../domain/credits/ledger";
import type { StatusApi } from "../../domain/generations/status";
import type { Generation } from "../../domain/generations/types";
import { type BanDeps, banUser } from "../../domain/users/ban-user";
import { userLabel } from "../../domain/users/user-label";
import type { Users } from "../../domain/users/users";
import type { Translate } from "../../platform/i18n/i18n";
import type { ReportPress } from "../../platform/telegram/callback-data";
import { isTelegramFailure } from "../../platform/telegram/telegram-error";
import type { ResultReport } from "./report-store";

export interface ReportActionDeps {
  users: Pick<Users, "get" | "ban">;
  generations: BanDeps["generations"];
  ledger: Pick<Ledger, "refund">;
  adminIds: readonly number[];
}
type ReportActionApi = Pick<Api, "deleteMessage"> & StatusApi;

/** What an admin's button did to a reported result: its outcome (recorded) and the admin's words for it. */
export async function actOnReport(
  deps: ReportActionDeps,
  api: ReportActionApi,
  t: Translate,
  press: ReportPress,
  g: Generation | undefined,
  report: ResultReport,
): Promise<{ outcome: string; text: string }> {
  const { chatId, makerId } = report;
  const said = (outcome: string, vars?: Record<string, string | number>) => ({
    outcome,
    text: t(`report-${outcome}`, vars),
  });
  switch (press.action) {
    case "remove": {
      // the result's messages, and an album's actions message (where the report was pressed)
      const pressedOn = report.messageId === null ? [] : [report.messageId];
      const ids = [...new Set([...(g?.deliveredMessageIds ?? []), ...pressedOn])];
      let removed = 0;
      for (const messageId of ids) {
        try {
          await api.deleteMessage(chatId, messageId);
          removed++;
        } catch (err) {
          // no right to delete there, or older than Telegram allows (48 hours): the admin is told
          if (!isTelegramFailure(err, "rejected", "chat-unreachable", "blocked")) throw err;
        }
      }
      return removed > 0 && removed === ids.length
        ? said("removed", { count: removed })
        : said("remove-failed");
    }
    case "refund": {
      if (!g || (g.charged ?? 0) === 0) return said("refund-none");
      const refunded = await deps.ledger.refund({
        holdKey: g.holdKey,
        key: reportRefundKey(g.id),
        note: "reported result",
      });
      if (refunded.ok)
        return refunded.applied ? said("refunded", { credits: refunded.refunded }) : said("refund-already");
      return said(refunded.reason === "exceeds_charge" ? "refund-already" : "refund-none");
    }
    case "ban": {
      const maker = (await deps.users.get(makerId)) ?? { id: makerId, username: null, firstName: null };
      if (deps.adminIds.includes(makerId)) return said("ban-admin", { user: userLabel(maker) });
      const { changed } = await banUser(deps, api, makerId);
      return said(changed ? "banned" : "ban-already", { user: userLabel(maker) });
    }
    case "dismiss":
      return said("dismissed");
  }
}
