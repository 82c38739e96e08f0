import { Composer, type Filter, InlineKeyboard } from "grammy";
import type { Message } from "grammy/types";
import type { BotContext } from "../../bot/context";
import { dropStaleButtons } from "../../bot/conversations/screen";
import type { Ledger } from "../../domain/credits/ledger";
import { defaultImageOptions, imageQuote } from "../../domain/generations/image-options";
import {
  type DubInputRules,
  defaultDubInputRules,
  type InputProblem,
  linkIn,
  type MediaInput,
  mediaIn,
  type PhotoInput,
  photoIn,
  tooLong,
} from "../../domain/generations/inputs";
import { promptProblem } from "../../domain/generations/prompt-rule";
import { quote } from "../../domain/generations/quote";
import { defaultVideoOptions } from "../../domain/generations/video-options";
import type { Prices } from "../../domain/pricing/prices";
import type { Translate } from "../../platform/i18n/i18n";
import { shorten } from "../../platform/lib/shorten";
import { type LinkKindProbe, linkKindProbe } from "../../platform/links/link-kind";
import { limits } from "../../platform/media-service/catalog";
import { type SentOfferAction, sentOfferData } from "../../platform/telegram/callback-data";
import { classifyTelegramError } from "../../platform/telegram/telegram-error";
import { imageOptionsOfStored, type Preferences, videoOptionsOfStored } from "../preferences";
import type { EditSeed } from "./edit";
import { start } from "./feature";
import { imageOptionLines } from "./image-settings";
import { rememberedLines } from "./remembered";
import type { SentPhotos, SentRecord, SentStore, SplitHead } from "./sent-store";
import { priceLines, summaryPromptLength } from "./summary";

export interface SentOffersDeps {
  sent: SentStore;
  prices: Prices;
  /** the percent off the user's requests (their plan's): offers show the price they would pay */
  discountOf(userId: number): Promise<number>;
  /** the balance beside each offer's price */
  ledger: Pick<Ledger, "account">;
  /** the remembered image options a text's offer is priced with */
  preferences?: Pick<Preferences, "get">;
  dubRules?: DubInputRules;
  /** reads what a pasted link points at (tests: their own certificate, a local address allowed) */
  linkKind?: LinkKindProbe;
}

type MessageContext = Filter<BotContext, "message">;

const maxPhotos = limits.editMaxImageUrls;

/** Telegram's limit for one text message (UTF-16 code units, as its clients count). */
const telegramTextLimit = 4096;
/**
 * Telegram's clients split a longer text into messages within the limit, cut
 * at the last whitespace in the last fifth before it, sent within a second. A
 * text this long may be the first part of more.
 */
export const splitPartLength = Math.floor(telegramTextLimit * 0.8);
/**
 * a part follows the one before it within this many seconds (by the messages' dates, when
 * Telegram received them): a second apart on a good connection, several on a slow one, or on
 * a busy machine running the playground
 */
const splitGapSeconds = 10;

function joined(first: string, rest: string): string {
  return /\s$/.test(first) || /^\s/.test(rest) ? first + rest : `${first} ${rest}`;
}

/** A message starting with a command (in its text or caption): the command handlers' or nobody's. */
function startsWithCommand(m: Message): boolean {
  return Boolean((m.entities ?? m.caption_entities)?.some((e) => e.type === "bot_command" && e.offset === 0));
}

/** A caption usable as the description of an edit; undefined otherwise. */
function promptOf(text: string | undefined, t: Translate): string | undefined {
  const trimmed = text?.trim();
  return trimmed && promptProblem(trimmed, t) === undefined ? trimmed : undefined;
}

function explain(ctx: MessageContext, problem: InputProblem, messageId = ctx.msg.message_id) {
  const { key, ...vars } = problem;
  return ctx.reply(ctx.t(key, { ...vars, max: maxPhotos } as Record<string, string | number>), {
    reply_parameters: { message_id: messageId, allow_sending_without_reply: true },
  });
}

function offerKeyboard(t: Translate, messageId: number, buttons: Array<[SentOfferAction, string]>) {
  const keyboard = new InlineKeyboard();
  for (const [action, label] of buttons)
    keyboard.text(t(label), sentOfferData.make({ action, messageId })).row();
  return keyboard;
}

function photosOffer(t: Translate, record: SentPhotos, messageId: number, price: string) {
  const count = record.photos.length;
  const lines = [t("sent-photos-offer", { count })];
  if (record.extra > 0) lines.push(t("sent-photos-extra", { max: maxPhotos }));
  const prompt = promptOf(record.caption, t);
  if (prompt) lines.push(t("cv-line-prompt", { value: shorten(prompt, summaryPromptLength) }));
  return {
    text: `${lines.join("\n\n")}\n${price}`,
    keyboard: offerKeyboard(t, messageId, [
      ["edit", count === 1 ? "sent-btn-edit-one" : "sent-btn-edit-many"],
      ["reference", count === 1 ? "sent-btn-reference-one" : "sent-btn-reference-many"],
    ]),
  };
}

/** What a press takes from the record: the conversation it starts and its seed. */
function seedOf(action: SentOfferAction, record: SentRecord, replyTo: number, t: Translate) {
  if ((action === "edit" || action === "reference") && record.kind === "photos") {
    const prompt = promptOf(record.caption, t);
    const seed: EditSeed = {
      replyTo,
      images: record.photos satisfies PhotoInput[],
      ...(prompt ? { prompt } : {}),
      ...(action === "reference" ? { reference: true } : {}),
    };
    return { operation: "edit" as const, seed };
  }
  if (action === "dub" && record.kind === "media")
    return { operation: "dub" as const, seed: { replyTo, media: record.media satisfies MediaInput } };
  if ((action === "image" || action === "video") && record.kind === "text")
    return { operation: action, seed: { replyTo, prompt: record.text } };
  return undefined;
}

/**
 * What a private chat does with something sent without a command (and outside
 * any conversation, which takes it first): a photo or an album is offered an
 * edit or a new picture from it, audio, voice, video or a video note a dub, and
 * text a picture or a video of it, each with its price and the balance. A
 * pasted link is read for what it points at: audio or video is offered a dub
 * priced by its length, an image what a photo is, a page what text is. A text
 * at Telegram's limit waits briefly for the rest of a message the client split.
 * The offer's buttons start the usual conversation with what was sent already
 * in it, so the one Confirm → generations.create path stays the only one that
 * spends. Groups keep commands only. Mounted after every feature, before the
 * kernel's fallback.
 */
export function sentOffersFeature(deps: SentOffersDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const rules = deps.dubRules ?? defaultDubInputRules;
  const probeLink = deps.linkKind ?? linkKindProbe();
  const replyTo = (messageId: number) => ({
    reply_parameters: { message_id: messageId, allow_sending_without_reply: true },
  });
  /** What an offer's price reads for this user: their balance, and the prices less their plan's discount. */
  const pricing = async (userId: number) => {
    const [account, discount] = await Promise.all([deps.ledger.account(userId), deps.discountOf(userId)]);
    return { available: account.available, prices: deps.prices.withDiscount(discount) };
  };
  const remembered = async (ctx: MessageContext, operation: "image" | "edit" | "video") =>
    deps.preferences?.get(ctx.from.id, operation).catch((err: unknown) => {
      ctx.logger.warn({ err, userId: ctx.from.id }, "remembered options unreadable: defaults offered");
      return undefined;
    });

  /** An edit's price with the user's remembered options (the photo's proportions otherwise), and the balance. */
  const photosPrice = async (ctx: MessageContext, first: PhotoInput) => {
    const options = imageOptionsOfStored(await remembered(ctx, "edit")) ?? defaultImageOptions(first);
    const { available, prices } = await pricing(ctx.from.id);
    return priceLines(ctx.t, imageQuote(prices, options), available);
  };

  const offerPhotos = async (ctx: MessageContext, messageId: number, record: SentPhotos) => {
    await deps.sent.keep(ctx.chat.id, messageId, record);
    const offer = photosOffer(ctx.t, record, messageId, await photosPrice(ctx, record.photos[0]!));
    const sent = await ctx.reply(offer.text, { reply_markup: offer.keyboard, ...replyTo(messageId) });
    await deps.sent.update(ctx.chat.id, messageId, { ...record, offerMessageId: sent.message_id });
  };

  const offerPhoto = async (ctx: MessageContext, photo: PhotoInput) => {
    const { message_id: messageId, media_group_id: group, caption } = ctx.msg;
    const chatId = ctx.chat.id;
    const first = group ? await deps.sent.albumStart(chatId, group, messageId) : messageId;
    if (first !== messageId) {
      // a later photo of an album whose first one made the offer: it joins that offer
      const record = await deps.sent.read(chatId, first);
      if (record?.kind !== "photos") return;
      const full = record.photos.length >= maxPhotos;
      const next: SentPhotos = {
        ...record,
        photos: full ? record.photos : [...record.photos, photo],
        extra: record.extra + (full ? 1 : 0),
        caption: record.caption ?? caption,
      };
      await deps.sent.update(chatId, first, next);
      if (record.offerMessageId === undefined) return;
      const price = await photosPrice(ctx, record.photos[0]!);
      const offer = photosOffer(ctx.t, next, first, price);
      const before = photosOffer(ctx.t, record, first, price);
      if (offer.text === before.text) return;
      await ctx.api
        .editMessageText(chatId, record.offerMessageId, offer.text, { reply_markup: offer.keyboard })
        .catch((err: unknown) => {
          // cosmetic: the offer still holds every photo of the album
          if (!classifyTelegramError(err)) throw err;
        });
      return;
    }
    await offerPhotos(ctx, messageId, {
      kind: "photos",
      userId: ctx.from.id,
      photos: [photo],
      extra: 0,
      ...(caption ? { caption } : {}),
    });
  };

  const offerDub = async (ctx: MessageContext, messageId: number, media: MediaInput) => {
    await deps.sent.keep(ctx.chat.id, messageId, { kind: "media", userId: ctx.from.id, media });
    const { available, prices } = await pricing(ctx.from.id);
    const price = quote(prices, { operation: "dub", durationSeconds: media.durationSeconds });
    const text = [
      ctx.t("sent-media-offer", { kind: media.kind ?? "audio" }),
      priceLines(ctx.t, price, available),
    ].join("\n");
    const keyboard = offerKeyboard(ctx.t, messageId, [["dub", "sent-btn-dub"]]);
    await ctx.reply(text, { reply_markup: keyboard, ...replyTo(messageId) });
  };

  /** A picture (priced with its options shown) or a video (its price on a line of its own). */
  const offerText = async (ctx: MessageContext, messageId: number, text: string) => {
    const userId = ctx.from.id;
    await deps.sent.keep(ctx.chat.id, messageId, { kind: "text", userId, text });
    const rememberedImage = imageOptionsOfStored(await remembered(ctx, "image"));
    const options = rememberedImage ?? defaultImageOptions();
    const video = videoOptionsOfStored(await remembered(ctx, "video")) ?? defaultVideoOptions();
    const { available, prices } = await pricing(userId);
    const videoPrice = quote(prices, { operation: "video", ...video });
    const lines = [
      ctx.t("sent-text-offer"),
      ...imageOptionLines(ctx.t, options),
      ...rememberedLines(ctx.t, rememberedImage !== undefined),
      priceLines(ctx.t, imageQuote(prices, options), available),
      videoPrice.ok
        ? ctx.t("sent-video-price", {
            price: videoPrice.credits,
            model: video.model,
            seconds: video.duration,
          })
        : ctx.t("sent-video-no-price"),
    ];
    const keyboard = offerKeyboard(ctx.t, messageId, [
      ["image", "sent-btn-image"],
      ["video", "sent-btn-video"],
    ]);
    await ctx.reply(lines.join("\n"), { reply_markup: keyboard, ...replyTo(messageId) });
  };

  /** A link is read first; nothing is kept or charged for one that cannot be opened. */
  const answerLink = async (ctx: MessageContext, messageId: number, url: string) => {
    await ctx.replyWithChatAction("typing").catch(() => undefined);
    const link = await probeLink(url);
    if (link.kind === "image")
      return offerPhotos(ctx, messageId, {
        kind: "photos",
        userId: ctx.from.id,
        photos: [{ ref: { kind: "url", url } }],
        extra: 0,
      });
    if (link.kind === "page") return offerText(ctx, messageId, url);
    const refused = link.kind === "unreachable" ? link.reason : undefined;
    if (refused === "private-address") return ctx.reply(ctx.t("dub-link-private"), replyTo(messageId));
    if (link.kind === "unreachable") return ctx.reply(ctx.t("sent-link-unreachable"), replyTo(messageId));
    const { duration } = link;
    if ("unknown" in duration && duration.unknown === "private-address")
      return ctx.reply(ctx.t("dub-link-private"), replyTo(messageId));
    if ("seconds" in duration && duration.seconds > rules.maxSeconds)
      return explain(ctx, tooLong(duration.seconds, rules), messageId);
    return offerDub(ctx, messageId, {
      ref: { kind: "url", url },
      kind: link.media,
      ...("seconds" in duration ? { durationSeconds: duration.seconds } : {}),
      label: url,
    });
  };

  /** The one answer to a text (a whole one, or the parts of a split one joined). */
  const answerText = async (ctx: MessageContext, messageId: number, raw: string) => {
    const link = linkIn(raw);
    if (link?.ok) return answerLink(ctx, messageId, link.url);
    if (link) return ctx.reply(ctx.t("cv-link-not-https"), replyTo(messageId));
    const problem = promptProblem(raw, ctx.t);
    if (problem) return ctx.reply(problem, replyTo(messageId));
    return offerText(ctx, messageId, raw.trim());
  };

  /**
   * The rest of a text the client split. Its head was answered at once (a text
   * that long is past the longest prompt: the answer is the length's refusal),
   * so each update ends answered, a crash in between included; the rest only
   * makes that answer the whole text's, and is not answered on its own.
   */
  const answerRest = async (ctx: MessageContext, head: SplitHead, text: string) => {
    const whole: SplitHead = { ...head, text: joined(head.text, text), date: ctx.msg.date };
    const problem = promptProblem(whole.text, ctx.t);
    if (problem) {
      await ctx.api.editMessageText(ctx.chat.id, head.answerId, problem).catch((err: unknown) => {
        ctx.logger.info(
          { err: classifyTelegramError(err)?.kind ?? String(err) },
          "split text's answer not updated",
        );
      });
    }
    if (text.length >= splitPartLength) await deps.sent.keepSplitHead(ctx.chat.id, ctx.from.id, whole);
  };

  const inPrivate = composer.chatType("private");
  inPrivate.on(
    [
      "message:photo",
      "message:document",
      "message:audio",
      "message:voice",
      "message:video",
      "message:video_note",
    ],
    async (ctx, next) => {
      if (startsWithCommand(ctx.msg)) return next();
      const photo = photoIn(ctx.msg);
      if (photo) return photo.ok ? offerPhoto(ctx, photo.value) : explain(ctx, photo.problem);
      const media = mediaIn(ctx.msg, rules);
      if (!media) return next();
      if (!media.ok)
        return media.problem.key === "cv-media-not-media"
          ? ctx.reply(ctx.t("sent-unusable"), replyTo(ctx.msg.message_id))
          : explain(ctx, media.problem);
      return offerDub(ctx, ctx.msg.message_id, media.value);
    },
  );
  inPrivate.on("message:text", async (ctx, next) => {
    if (startsWithCommand(ctx.msg)) return next();
    const { text, message_id: messageId, date } = ctx.msg;
    const head = await deps.sent.takeSplitHead(ctx.chat.id, ctx.from.id);
    if (head && date - head.date <= splitGapSeconds) return answerRest(ctx, head, text);
    const answer = await answerText(ctx, messageId, text);
    if (text.length >= splitPartLength && answer && "message_id" in answer)
      await deps.sent.keepSplitHead(ctx.chat.id, ctx.from.id, { text, date, answerId: answer.message_id });
  });
  composer.callbackQuery(sentOfferData.pattern, async (ctx) => {
    const press = sentOfferData.parse(ctx.callbackQuery.data);
    const chatId = ctx.chat?.id;
    const record = press && chatId !== undefined ? await deps.sent.take(chatId, press.messageId) : undefined;
    const started =
      press && record && record.userId === ctx.from.id
        ? seedOf(press.action, record, press.messageId, ctx.t)
        : undefined;
    await ctx.answerCallbackQuery(started ? {} : { text: ctx.t("sent-offer-expired") });
    // the offer is taken (or gone): its buttons go, so it is not pressed again
    await dropStaleButtons(ctx);
    if (started) await start(ctx, started.operation, started.seed);
  });

  return composer;
}
