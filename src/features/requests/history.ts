import { Composer, InlineKeyboard } from "grammy";
import type { BotContext } from "../../bot/context";
import { type Details, showPrivately } from "../../bot/private-details";
import { type HoldCost, holdCosts } from "../../domain/credits/hold-costs";
import { describeParams } from "../../domain/generations/params";
import type { GenerationReads } from "../../domain/generations/reads";
import { resendResult } from "../../domain/generations/resend-result";
import { galleryUrlFor } from "../../domain/generations/result-keyboard";
import { endedBadly } from "../../domain/generations/states";
import type { Generation } from "../../domain/generations/types";
import type { Database } from "../../platform/db/client";
import type { GenerationState } from "../../platform/db/schema";
import type { Translate } from "../../platform/i18n/i18n";
import type { Language } from "../../platform/i18n/language";
import { chatMoment } from "../../platform/i18n/moments";
import { shorten } from "../../platform/lib/shorten";
import { historyShowData, regenerateData } from "../../platform/telegram/callback-data";

const historyLimit = 10;

/** Ended without a result: the request can be made again. */
const retryable: GenerationState[] = [...endedBadly, "cancelled"];

function costText(t: Translate, g: Generation, cost: HoldCost | undefined): string {
  if (!cost) return t("history-cost-none");
  switch (cost.kind) {
    case "held":
      return t("history-cost-held", { cost: cost.amount });
    case "charged":
      return cost.refunded > 0
        ? t("history-cost-refunded", { cost: cost.amount, refunded: cost.refunded })
        : t("history-cost-charged", { cost: cost.amount });
    case "returned":
      // a late result is delivered free after its reservation was given back
      return g.late ? t("history-cost-free") : t("history-cost-returned", { cost: cost.amount });
    case "free":
      return t("history-cost-free");
  }
}

function lineOf(
  t: Translate,
  language: Language,
  g: Generation,
  index: number,
  describe: (g: Generation) => string,
  cost: HoldCost | undefined,
): string {
  return t("history-line", {
    index,
    operation: t(`op-${g.operation}`),
    state: t(`history-state-${g.state}`),
    cost: costText(t, g, cost),
    what: shorten(describe(g), 60),
    ...chatMoment(language, g.createdAt),
  });
}

export interface HistoryDeps {
  generations: Pick<GenerationReads, "recent" | "get" | "paramsOf">;
  db: Database;
  /** the Mini App (config.miniAppUrl): a "Gallery" button under the list in private chats */
  miniAppUrl?: string | undefined;
}

/**
 * /history: the user's recent requests with their state and cost; finished
 * ones can be shown again (by file_id), failed ones tried again (`rg:`, which
 * the conversations handle).
 */
export function historyFeature(deps: HistoryDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const describe = (t: Translate) => (g: Generation) => {
    try {
      return describeParams(deps.generations.paramsOf(g), t);
    } catch {
      return "";
    }
  };

  /** The list, in the member's private chat (asked in a group, it goes there: `showPrivately`). */
  async function list(userId: number, t: Translate, language: Language): Promise<Details[]> {
    const recent = await deps.generations.recent(userId, historyLimit);
    if (recent.length === 0) return [{ text: t("history-empty") }];
    const costs = await holdCosts(
      deps.db,
      recent.map((g) => g.holdKey),
    );
    const keyboard = new InlineKeyboard();
    let buttons = 0;
    const lines = recent.map((g, i) => {
      const index = i + 1;
      const label =
        g.state === "delivered" && (g.fileIds?.length ?? 0) > 0
          ? { text: t("history-btn-show", { index }), data: historyShowData.make(g.id) }
          : retryable.includes(g.state)
            ? { text: t("history-btn-retry", { index }), data: regenerateData.make(g.id) }
            : undefined;
      if (label) {
        if (buttons > 0 && buttons % 3 === 0) keyboard.row();
        keyboard.text(label.text, label.data);
        buttons++;
      }
      return lineOf(t, language, g, index, describe(t), costs.get(g.holdKey));
    });
    const gallery = galleryUrlFor(userId, deps.miniAppUrl);
    if (gallery) {
      if (buttons > 0) keyboard.row();
      keyboard.webApp(t("btn-gallery"), gallery);
    }
    return [
      {
        text: [t("history-title"), ...lines].join("\n\n"),
        ...(buttons > 0 || gallery ? { reply_markup: keyboard } : {}),
      },
    ];
  }

  const show = (ctx: BotContext) =>
    showPrivately(ctx, "history", (t, language) => list(ctx.from?.id ?? 0, t, language));
  feature.command("history", show);
  // the "Open a private chat" link of /history asked in a group
  feature.command("start", (ctx, next) =>
    ctx.chat.type === "private" && ctx.match === "history" ? show(ctx) : next(),
  );

  feature.callbackQuery(historyShowData.pattern, async (ctx) => {
    const id = historyShowData.parse(ctx.callbackQuery.data);
    if (id === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("cv-expired-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    const g = await deps.generations.get(id);
    if (!g || g.userId !== ctx.from.id || (g.fileIds?.length ?? 0) === 0) {
      await ctx.reply(ctx.t("history-gone"));
      return;
    }
    const m = ctx.msg;
    await resendResult(
      ctx.api,
      {
        chatId: ctx.chat?.id ?? ctx.from.id,
        threadId: m?.is_topic_message ? m.message_thread_id : undefined,
        galleryUrl: galleryUrlFor(ctx.chat?.type === "private" ? ctx.chat.id : undefined, deps.miniAppUrl),
      },
      g,
      shorten(describe((key, vars) => ctx.t(key, vars))(g), 900),
      (key, vars) => ctx.t(key, vars),
    );
  });

  return feature;
}
