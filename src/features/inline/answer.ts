import { InlineKeyboard, InlineQueryResultBuilder } from "grammy";
import type { InlineQueryResult } from "grammy/types";
import type { BotContext } from "../../bot/context";
import { recordedKinds, type SentFileKind } from "../../domain/generations/deliver/sent-file";
import { imageQuote } from "../../domain/generations/image-options";
import { generationParams } from "../../domain/generations/params";
import { promptProblem } from "../../domain/generations/prompt-rule";
import type { GenerationReads } from "../../domain/generations/reads";
import type { Generation } from "../../domain/generations/types";
import type { Prices } from "../../domain/pricing/prices";
import type { Users } from "../../domain/users/users";
import { shorten } from "../../platform/lib/shorten";
import { inlineConfirmData } from "../../platform/telegram/callback-data";
import { isTelegramFailure } from "../../platform/telegram/telegram-error";
import type { Preferences } from "../preferences";
import { type InlineOffers, offerIdOf } from "./offers";
import { canShowInline, inlineStartParameter } from "./private-chat";
import { inlineImageOptions } from "./remembered-image";

export interface InlineAnswerDeps {
  prices: Prices;
  /** the percent off the user's requests (their plan's): the offer shows the price Confirm holds */
  discountOf(userId: number): Promise<number>;
  preferences: Preferences;
  offers: InlineOffers;
  generations: Pick<GenerationReads, "deliveredWithFiles">;
  users: Pick<Users, "reachablePrivately">;
  inlineStorageChatId?: number | undefined;
}

/** Inline queries come per keystroke: Telegram may reuse an answer for this user only, briefly. */
export const inlineCacheSeconds = 10;
/** earlier results shown under the offer, newest first */
const recentShown = 5;
/** an offer result's id: its offer id after this prefix (chosen_inline_result tells it back) */
export const offerResultPrefix = "o:";

function helpArticle(id: string, title: string, text: string): InlineQueryResult {
  return InlineQueryResultBuilder.article(id, title, {
    description: shorten(text.split("\n")[0] ?? text, 200),
  }).text(text);
}

/** What the bot sent for operation `g` when no kind was recorded (older rows); undefined when it cannot tell. */
function inferredKind(g: Generation): SentFileKind | undefined {
  if (g.operation === "image" || g.operation === "edit") return "photo";
  if (g.operation === "video") return "video";
  // a dub went out as audio, video or a document by its file's type: no guess is safe
  return undefined;
}

interface CachedResult {
  result: InlineQueryResult;
  /** its type was inferred, not recorded: Telegram may refuse it (and with it the whole answer) */
  guessed: boolean;
}

/** A file sent earlier, offered again by its file_id as a cached result of its own type. */
function cachedResult(kind: SentFileKind, id: string, title: string, fileId: string): InlineQueryResult {
  switch (kind) {
    case "photo":
      return InlineQueryResultBuilder.photoCached(id, fileId, { title });
    case "video":
      return InlineQueryResultBuilder.videoCached(id, title, fileId);
    case "audio":
      return InlineQueryResultBuilder.audioCached(id, fileId);
    case "voice":
      return InlineQueryResultBuilder.voiceCached(id, title, fileId);
    case "document":
      return InlineQueryResultBuilder.documentCached(id, title, fileId);
  }
}

/** The user's earlier results matching the query, as cached files (by their Telegram file_id) of their kind. */
function cachedResults(g: Generation, t: BotContext["t"]): CachedResult[] {
  const parsed = generationParams.safeParse(g.params);
  const params = parsed.success ? parsed.data : undefined;
  const title = params && "prompt" in params ? shorten(params.prompt, 100) : t("inline-recent-title");
  const kinds = recordedKinds(g.fileKinds);
  return (g.fileIds ?? []).flatMap((fileId, i): CachedResult[] => {
    const recorded = kinds[i];
    const kind = recorded ?? inferredKind(g);
    if (kind === undefined) return [];
    return [{ result: cachedResult(kind, `r:${g.id}:${i}`, title, fileId), guessed: recorded === undefined }];
  });
}

/** The image offer: its price with the user's remembered options, one picture, kept in Redis for Confirm. */
async function imageOffer(ctx: BotContext, deps: InlineAnswerDeps, prompt: string, userId: number) {
  const [options, discount] = await Promise.all([
    inlineImageOptions(deps.preferences, userId),
    deps.discountOf(userId),
  ]);
  const q = imageQuote(deps.prices.withDiscount(discount), options);
  if (!q.ok) return undefined;
  const params = { operation: "image" as const, prompt, ...options };
  const offerId = offerIdOf(userId, params, q.credits);
  await deps.offers.save({
    offerId,
    userId,
    language: await ctx.i18n.getLocale(),
    params,
    price: q.credits,
  });
  const keyboard = new InlineKeyboard().text(ctx.t("btn-confirm"), inlineConfirmData.make(offerId));
  return InlineQueryResultBuilder.article(
    `${offerResultPrefix}${offerId}`,
    ctx.t("inline-image-title", { price: q.credits }),
    { description: shorten(prompt, 200), reply_markup: keyboard },
  ).text(ctx.t("inline-offer", { prompt, price: q.credits }));
}

/**
 * `@bot <prompt>`: an image offer priced with the user's remembered options,
 * and their earlier results matching the prompt; an empty query gets help and
 * the latest results, a prompt that cannot be used gets why. Personal and
 * briefly cached; a user the bot cannot upload a result to (never started it)
 * also gets a button to start it. A banned user was answered (empty) before this.
 */
export async function answerInlineQuery(ctx: BotContext, deps: InlineAnswerDeps): Promise<void> {
  const query = ctx.inlineQuery;
  if (!query) return;
  const userId = query.from.id;
  const text = query.query.trim();
  const bot = ctx.me.username;
  const results: InlineQueryResult[] = [];
  if (text === "") {
    results.push(helpArticle("help", ctx.t("inline-help-title"), ctx.t("inline-help-text", { bot })));
  } else {
    const problem = promptProblem(text, (key, vars) => ctx.t(key, vars));
    if (problem !== undefined) results.push(helpArticle("problem", ctx.t("inline-problem-title"), problem));
    else {
      const offer = await imageOffer(ctx, deps, text, userId);
      if (offer) results.push(offer);
    }
  }
  const recent = await deps.generations.deliveredWithFiles(userId, {
    ...(text !== "" ? { match: text } : {}),
    limit: recentShown,
  });
  const cached = recent.flatMap((g) => cachedResults(g, ctx.t)).slice(0, recentShown);
  // uploads go to the user's private chat: one they never opened would refuse the result after it is paid
  const startFirst = (await canShowInline(deps, userId))
    ? {}
    : { button: { text: ctx.t("inline-answer-start"), start_parameter: inlineStartParameter } };
  const answer = (shown: CachedResult[]) =>
    ctx.answerInlineQuery([...results, ...shown.map((c) => c.result)], {
      cache_time: inlineCacheSeconds,
      is_personal: true,
      ...startFirst,
    });
  try {
    await answer(cached);
  } catch (err) {
    // a guessed type Telegram refused takes the whole answer with it: answer again without the guesses
    if (!cached.some((c) => c.guessed) || !isTelegramFailure(err, "rejected")) throw err;
    ctx.logger.info({ userId }, "inline answer refused with guessed result types: answered without them");
    await answer(cached.filter((c) => !c.guessed));
  }
}
