import { Composer, InlineKeyboard } from "grammy";
import type { InputMediaPhoto } from "grammy/types";
import { type HoldCost, holdCosts } from "../../credits/hold-costs";
import type { Database } from "../../db/client";
import type { GenerationState } from "../../db/schema";
import { describeParams } from "../../generations/params";
import { resultKeyboard } from "../../generations/result-keyboard";
import type { Generations } from "../../generations/service";
import { endedBadly } from "../../generations/states";
import type { Generation } from "../../generations/types";
import { shorten } from "../../lib/shorten";
import { historyShowData, regenerateData } from "../../telegram/callback-data";
import { isTelegramFailure } from "../../telegram/telegram-error";
import type { BotContext } from "../context";

const historyLimit = 10;

/** Ended without a result: the request can be made again. */
const retryable: GenerationState[] = [...endedBadly, "cancelled"];

function costText(ctx: BotContext, g: Generation, cost: HoldCost | undefined): string {
  if (!cost) return ctx.t("history-cost-none");
  switch (cost.kind) {
    case "held":
      return ctx.t("history-cost-held", { cost: cost.amount });
    case "charged":
      return cost.refunded > 0
        ? ctx.t("history-cost-refunded", { cost: cost.amount, refunded: cost.refunded })
        : ctx.t("history-cost-charged", { cost: cost.amount });
    case "returned":
      // a late result is delivered free after its reservation was given back
      return g.late ? ctx.t("history-cost-free") : ctx.t("history-cost-returned", { cost: cost.amount });
    case "free":
      return ctx.t("history-cost-free");
  }
}

function lineOf(
  ctx: BotContext,
  g: Generation,
  index: number,
  describe: (g: Generation) => string,
  cost: HoldCost | undefined,
): string {
  const when = g.createdAt.toISOString().slice(0, 16).replace("T", " ");
  return ctx.t("history-line", {
    index,
    operation: ctx.t(`op-${g.operation}`),
    state: ctx.t(`history-state-${g.state}`),
    cost: costText(ctx, g, cost),
    what: shorten(describe(g), 60),
    when,
  });
}

/** Telegram refuses a file_id sent as the wrong kind; a document takes any file. */
async function withDocumentFallback<T>(send: () => Promise<T>, asDocument: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (isTelegramFailure(err, "rejected")) return asDocument();
    throw err;
  }
}

/** Sends a result again by its Telegram file_ids: no new upload, no new cost. */
async function resend(ctx: BotContext, g: Generation, caption: string): Promise<void> {
  const fileIds = g.fileIds ?? [];
  const other = { caption, reply_markup: resultKeyboard(g, (_language, key, vars) => ctx.t(key, vars)) };
  const document = (id: string) => () => ctx.replyWithDocument(id, other).then(() => undefined);
  if (g.operation === "image" || g.operation === "edit") {
    await ctx.replyWithChatAction("upload_photo");
    if (fileIds.length === 1) {
      const id = fileIds[0]!;
      await withDocumentFallback(() => ctx.replyWithPhoto(id, other).then(() => undefined), document(id));
      return;
    }
    const media = fileIds
      .slice(0, 10)
      .map((id, i): InputMediaPhoto => ({ type: "photo", media: id, ...(i === 0 ? { caption } : {}) }));
    await withDocumentFallback(
      () => ctx.replyWithMediaGroup(media).then(() => undefined),
      async () => {
        for (const id of fileIds) await ctx.replyWithDocument(id);
      },
    );
    return;
  }
  const kind = g.operation === "video" ? "video" : (g.params as { kind?: string }).kind;
  await ctx.replyWithChatAction(kind === "video" ? "upload_video" : "upload_voice");
  for (const id of fileIds) {
    await withDocumentFallback(
      () =>
        (kind === "video" ? ctx.replyWithVideo(id, other) : ctx.replyWithAudio(id, other)).then(
          () => undefined,
        ),
      document(id),
    );
  }
}

export interface HistoryDeps {
  generations: Pick<Generations, "recent" | "get" | "paramsOf">;
  db: Database;
}

/**
 * /history: the user's recent requests with their state and cost; finished
 * ones can be shown again (by file_id), failed ones tried again (`rg:`, which
 * the conversations handle).
 */
export function historyFeature(deps: HistoryDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const describe = (ctx: BotContext) => (g: Generation) => {
    try {
      return describeParams(deps.generations.paramsOf(g), (key) => ctx.t(key));
    } catch {
      return "";
    }
  };

  feature.command("history", async (ctx) => {
    if (!ctx.from) return;
    const recent = await deps.generations.recent(ctx.from.id, historyLimit);
    if (recent.length === 0) return void (await ctx.reply(ctx.t("history-empty")));
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
          ? { text: ctx.t("history-btn-show", { index }), data: historyShowData.make(g.id) }
          : retryable.includes(g.state)
            ? { text: ctx.t("history-btn-retry", { index }), data: regenerateData.make(g.id) }
            : undefined;
      if (label) {
        if (buttons > 0 && buttons % 3 === 0) keyboard.row();
        keyboard.text(label.text, label.data);
        buttons++;
      }
      return lineOf(ctx, g, index, describe(ctx), costs.get(g.holdKey));
    });
    await ctx.reply([ctx.t("history-title"), ...lines].join("\n\n"), {
      ...(buttons > 0 ? { reply_markup: keyboard } : {}),
    });
  });

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
    await resend(ctx, g, shorten(describe(ctx)(g), 900));
  });

  return feature;
}
