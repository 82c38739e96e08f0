import { type Api, Composer, InlineKeyboard } from "grammy";
import type { BotContext } from "../../bot/context";
import { adminsOnly } from "../../bot/middleware/admins-only";
import type { GenerationReads } from "../../domain/generations/reads";
import { type ResendApi, resendResult } from "../../domain/generations/resend-result";
import type { Generation } from "../../domain/generations/types";
import { userLabel } from "../../domain/users/user-label";
import type { ReportAction } from "../../platform/db/schema";
import type { Translate, TranslateFor } from "../../platform/i18n/i18n";
import { shorten } from "../../platform/lib/shorten";
import { reportActionData, reportResultData } from "../../platform/telegram/callback-data";
import { isTelegramFailure } from "../../platform/telegram/telegram-error";
import { actOnReport, type ReportActionDeps } from "./report-actions";
import type { ReportStore } from "./report-store";

export interface ReportsDeps extends ReportActionDeps {
  reports: ReportStore;
  generations: Pick<GenerationReads, "get"> & ReportActionDeps["generations"];
  t: TranslateFor;
}

/** A prompt as an admin reads it in a report: a dub has none, and a long one is cut. */
export function reportedPrompt(g: Pick<Generation, "params">): string {
  const prompt = (g.params as { prompt?: unknown }).prompt;
  if (typeof prompt !== "string" || prompt === "") return "—";
  return shorten(prompt, 600);
}

export const reportKeyboard = (t: Translate, id: string) =>
  new InlineKeyboard()
    .text(t("report-remove-button"), reportActionData.make({ action: "remove", id }))
    .text(t("report-refund-button"), reportActionData.make({ action: "refund", id }))
    .row()
    .text(t("report-ban-button"), reportActionData.make({ action: "ban", id }))
    .text(t("report-dismiss-button"), reportActionData.make({ action: "dismiss", id }));

/**
 * Reports of results in groups: any member's "⚠️ Report" under a result (each
 * member once); the first report of a result goes to every admin, with the
 * result, who made it, the prompt and the group, and buttons to remove it
 * from the group, refund it, ban its maker or dismiss the report. Each
 * action is recorded on the report and logged.
 */
export function reportsFeature(deps: ReportsDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();

  async function tellAdmins(api: Api, g: Generation, group: string, reporter: string): Promise<void> {
    const maker = await deps.users.get(g.userId);
    for (const adminId of deps.adminIds) {
      const language = (await deps.users.get(adminId))?.language ?? "en";
      const t: Translate = (key, vars) => deps.t(language, key, vars);
      const text = t("report-admin", {
        group,
        maker: maker ? userLabel(maker) : String(g.userId),
        operation: g.operation,
        price: g.charged ?? g.price,
        prompt: reportedPrompt(g),
        reporter,
      });
      try {
        if ((g.fileIds ?? []).length > 0)
          await resendResult(api as ResendApi, { chatId: adminId, plain: true }, g, "", t);
        await api.sendMessage(adminId, text, { reply_markup: reportKeyboard(t, g.id) });
      } catch (err) {
        // an admin who never started the bot, or blocked it: the others (and the Mini App's list) have it
        if (!isTelegramFailure(err, "blocked", "chat-unreachable", "rejected")) throw err;
      }
    }
  }

  feature.callbackQuery(reportResultData.pattern, async (ctx) => {
    const id = reportResultData.parse(ctx.callbackQuery.data);
    const g = id ? await deps.generations.get(id) : undefined;
    const chat = ctx.chat;
    if (!g || g.chatId === null || chat === undefined || chat.id !== g.chatId) {
      await ctx.answerCallbackQuery({ text: ctx.t("report-gone") });
      return;
    }
    const reporterId = ctx.callbackQuery.from.id;
    // the message pressed on, only when it carries this very button: data can be sent from any message
    const pressedOn = ctx.callbackQuery.message;
    const carries = pressedOn?.reply_markup?.inline_keyboard
      .flat()
      .some((b) => "callback_data" in b && b.callback_data === ctx.callbackQuery.data);
    const reported = await deps.reports.report(
      {
        id: g.id,
        chatId: g.chatId,
        makerId: g.userId,
        messageId: carries ? pressedOn?.message_id : undefined,
      },
      reporterId,
    );
    await ctx.answerCallbackQuery({
      text: ctx.t(reported === "already" ? "report-already" : "report-thanks"),
    });
    ctx.logger.info({ generationId: g.id, reporterId, reported }, "a result reported");
    if (reported !== "first") return;
    const group = "title" in chat && chat.title ? chat.title : String(chat.id);
    await tellAdmins(
      ctx.api,
      g,
      group,
      userLabel({
        id: reporterId,
        username: ctx.callbackQuery.from.username ?? null,
        firstName: ctx.callbackQuery.from.first_name,
      }),
    );
  });

  const { outer, admins } = adminsOnly(deps.adminIds);
  admins.callbackQuery(reportActionData.pattern, async (ctx) => {
    const press = reportActionData.parse(ctx.callbackQuery.data);
    const report = press ? await deps.reports.get(press.id) : undefined;
    if (!press || !report) {
      await ctx.answerCallbackQuery({ text: ctx.t("report-gone") });
      return;
    }
    // answered at once: removing messages one by one, or banning, takes a moment
    await ctx.answerCallbackQuery();
    const g = (await deps.generations.get(press.id)) ?? undefined;
    const { outcome, text } = await actOnReport(
      deps,
      ctx.api,
      (key, vars) => ctx.t(key, vars),
      press,
      g,
      report,
    );
    const adminId = ctx.callbackQuery.from.id;
    const action: ReportAction = press.action;
    await deps.reports.act(press.id, { action, by: adminId, at: new Date().toISOString(), outcome });
    ctx.logger.info({ generationId: press.id, adminId, action, outcome }, "a report handled");
    await ctx.reply(text);
  });
  feature.use(outer);

  return feature;
}
