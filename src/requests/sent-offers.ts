import { Composer, type Filter, InlineKeyboard } from "grammy";
import type { Message } from "grammy/types";
import type { BotContext } from "../bot/context";
import { dropStaleButtons } from "../bot/conversations/screen";
import type { Ledger } from "../credits/ledger";
import { defaultImageOptions, imageQuote } from "../generations/image-options";
import {
  type DubInputRules,
  defaultDubInputRules,
  type InputProblem,
  type MediaInput,
  mediaIn,
  type PhotoInput,
  photoIn,
} from "../generations/inputs";
import { promptProblem } from "../generations/prompt-rule";
import { quote } from "../generations/quote";
import type { Translate } from "../i18n/i18n";
import { shorten } from "../lib/shorten";
import { limits } from "../media/catalog";
import { imageOptionsOfStored, type Preferences } from "../preferences";
import type { Prices } from "../pricing/prices";
import { type SentOfferAction, sentOfferData } from "../telegram/callback-data";
import { classifyTelegramError } from "../telegram/telegram-error";
import type { EditSeed } from "./edit";
import { start } from "./feature";
import { imageOptionLines } from "./image-settings";
import { rememberedLines } from "./remembered";
import type { SentPhotos, SentRecord, SentStore } from "./sent-store";
import { priceLines, summaryPromptLength } from "./summary";

export interface SentOffersDeps {
  sent: SentStore;
  prices: Prices;
  /** the balance beside each offer's price */
  ledger: Pick<Ledger, "account">;
  /** the remembered image options a text's offer is priced with */
  preferences?: Pick<Preferences, "get">;
  dubRules?: DubInputRules;
}

type MessageContext = Filter<BotContext, "message">;

const maxPhotos = limits.editMaxImageUrls;

/** A message starting with a command (in its text or caption): the command handlers' or nobody's. */
function startsWithCommand(m: Message): boolean {
  return Boolean((m.entities ?? m.caption_entities)?.some((e) => e.type === "bot_command" && e.offset === 0));
}

/** A caption usable as the description of an edit; undefined otherwise. */
function promptOf(text: string | undefined, t: Translate): string | undefined {
  const trimmed = text?.trim();
  return trimmed && promptProblem(trimmed, t) === undefined ? trimmed : undefined;
}

function explain(ctx: MessageContext, problem: InputProblem) {
  const { key, ...vars } = problem;
  return ctx.reply(ctx.t(key, { ...vars, max: maxPhotos } as Record<string, string | number>), {
    reply_parameters: { message_id: ctx.msg.message_id, allow_sending_without_reply: true },
  });
}

function offerKeyboard(t: Translate, messageId: number, buttons: Array<[SentOfferAction, string]>) {
  const keyboard = new InlineKeyboard();
  for (const [action, label] of buttons)
    keyboard.text(t(label), sentOfferData.make({ action, messageId })).row();
  return keyboard;
}

function photosOffer(t: Translate, record: SentPhotos, messageId: number) {
  const count = record.photos.length;
  const lines = [t("sent-photos-offer", { count })];
  if (record.extra > 0) lines.push(t("sent-photos-extra", { max: maxPhotos }));
  const prompt = promptOf(record.caption, t);
  if (prompt) lines.push(t("cv-line-prompt", { value: shorten(prompt, summaryPromptLength) }));
  return {
    text: lines.join("\n\n"),
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
  if (action === "image" && record.kind === "text")
    return { operation: "image" as const, seed: { replyTo, prompt: record.text } };
  return undefined;
}

/**
 * What a private chat does with something sent without a command (and outside
 * any conversation, which takes it first): a photo or an album is offered an
 * edit or a new picture from it, audio, voice, video or a video note a dub, and
 * text a picture of it with the user's remembered options and their price.
 * The offer's buttons start the usual conversation with what was sent already
 * in it, so the one Confirm → generations.create path stays the only one that
 * spends. Groups keep commands only. Mounted after every feature, before the
 * kernel's fallback.
 */
export function sentOffersFeature(deps: SentOffersDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const rules = deps.dubRules ?? defaultDubInputRules;
  const replyTo = (messageId: number) => ({
    reply_parameters: { message_id: messageId, allow_sending_without_reply: true },
  });
  const balance = async (userId: number) => (await deps.ledger.account(userId)).available;

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
      const offer = photosOffer(ctx.t, next, first);
      const before = photosOffer(ctx.t, record, first);
      if (offer.text === before.text) return;
      await ctx.api
        .editMessageText(chatId, record.offerMessageId, offer.text, { reply_markup: offer.keyboard })
        .catch((err: unknown) => {
          // cosmetic: the offer still holds every photo of the album
          if (!classifyTelegramError(err)) throw err;
        });
      return;
    }
    const record: SentPhotos = {
      kind: "photos",
      userId: ctx.from.id,
      photos: [photo],
      extra: 0,
      ...(caption ? { caption } : {}),
    };
    await deps.sent.keep(chatId, messageId, record);
    const offer = photosOffer(ctx.t, record, messageId);
    const sent = await ctx.reply(offer.text, { reply_markup: offer.keyboard, ...replyTo(messageId) });
    await deps.sent.update(chatId, messageId, { ...record, offerMessageId: sent.message_id });
  };

  const offerDub = async (ctx: MessageContext, media: MediaInput) => {
    const messageId = ctx.msg.message_id;
    await deps.sent.keep(ctx.chat.id, messageId, { kind: "media", userId: ctx.from.id, media });
    const price = quote(deps.prices, { operation: "dub", durationSeconds: media.durationSeconds });
    const text = [
      ctx.t("sent-media-offer", { kind: media.kind ?? "audio" }),
      priceLines(ctx.t, price, await balance(ctx.from.id)),
    ].join("\n");
    const keyboard = offerKeyboard(ctx.t, messageId, [["dub", "sent-btn-dub"]]);
    await ctx.reply(text, { reply_markup: keyboard, ...replyTo(messageId) });
  };

  const offerImage = async (ctx: MessageContext, text: string) => {
    const messageId = ctx.msg.message_id;
    const userId = ctx.from.id;
    await deps.sent.keep(ctx.chat.id, messageId, { kind: "text", userId, text });
    const stored = await deps.preferences?.get(userId, "image").catch((err: unknown) => {
      ctx.logger.warn({ err, userId }, "remembered options unreadable: defaults offered");
      return undefined;
    });
    const remembered = imageOptionsOfStored(stored);
    const options = remembered ?? defaultImageOptions();
    const lines = [
      ctx.t("sent-text-offer"),
      ...imageOptionLines(ctx.t, options),
      ...rememberedLines(ctx.t, remembered !== undefined),
      priceLines(ctx.t, imageQuote(deps.prices, options), await balance(userId)),
    ];
    const keyboard = offerKeyboard(ctx.t, messageId, [["image", "sent-btn-image"]]);
    await ctx.reply(lines.join("\n"), { reply_markup: keyboard, ...replyTo(messageId) });
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
      return offerDub(ctx, media.value);
    },
  );
  inPrivate.on("message:text", async (ctx, next) => {
    if (startsWithCommand(ctx.msg)) return next();
    const problem = promptProblem(ctx.msg.text, ctx.t);
    if (problem) return ctx.reply(problem, replyTo(ctx.msg.message_id));
    return offerImage(ctx, ctx.msg.text.trim());
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
