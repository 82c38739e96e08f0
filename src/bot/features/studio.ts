import { randomBytes } from "node:crypto";
import { Composer, InlineKeyboard } from "grammy";
import type { Message } from "grammy/types";
import { z } from "zod";
import type { Database } from "../../db/client";
import {
  describeParams,
  type GenerationParamsInput,
  generationParams,
  type InputRef,
} from "../../generations/params";
import { quote } from "../../generations/quote";
import type { Generations } from "../../generations/service";
import {
  defaultImageModel,
  defaultVideoModel,
  dubbingLanguages,
  limits,
  videoModels,
} from "../../media/catalog";
import type { Prices } from "../../pricing/prices";
import { languageFromCode } from "../../users/language";
import type { BotContext } from "../context";
import { createKvStorage } from "../storage";

/**
 * The one-line forms of the four operations (`/image <prompt>` and friends),
 * each with defaults, the price and a Confirm button; and the buttons under
 * results. The spending call is keyed by the offer, so a double tap on Confirm
 * creates one generation.
 */

const pendingSchema = z.object({
  userId: z.number(),
  chatId: z.number(),
  threadId: z.number().nullable(),
  replyTo: z.number().nullable(),
  params: generationParams,
});
type Pending = z.infer<typeof pendingSchema>;

/** Telegram lets bots download files up to 20 MB (cloud Bot API). */
export const telegramDownloadMaxBytes = 20 * 1024 * 1024;

const confirmData = (id: string) => `qc:${id}`;
const cancelData = (id: string) => `qx:${id}`;

function language(ctx: BotContext): string {
  return languageFromCode(ctx.user?.language ?? ctx.from?.language_code);
}

function opName(ctx: BotContext, operation: string): string {
  return ctx.t(`op-${operation}`);
}

/** The photo a command refers to: attached to it, or the message it replies to. */
function photoRef(m: Message | undefined): InputRef | undefined {
  if (!m) return undefined;
  const best = m.photo?.[m.photo.length - 1];
  if (best)
    return {
      kind: "telegram",
      fileId: best.file_id,
      fileUniqueId: best.file_unique_id,
      size: best.file_size,
    };
  if (m.document?.mime_type?.startsWith("image/")) {
    return {
      kind: "telegram",
      fileId: m.document.file_id,
      size: m.document.file_size,
      mimeType: m.document.mime_type,
    };
  }
  return undefined;
}

type MediaRef = { ref: InputRef; duration?: number; kind: "audio" | "video" };

function mediaRef(m: Message | undefined): MediaRef | undefined {
  if (!m) return undefined;
  const file = m.audio ?? m.voice ?? m.video ?? m.video_note ?? m.document;
  if (!file) return undefined;
  const mime = "mime_type" in file ? file.mime_type : undefined;
  const isVideo = Boolean(m.video ?? m.video_note) || Boolean(mime?.startsWith("video/"));
  if (m.document && !(mime?.startsWith("audio/") || mime?.startsWith("video/"))) return undefined;
  return {
    ref: { kind: "telegram", fileId: file.file_id, size: file.file_size, mimeType: mime },
    duration: "duration" in file ? file.duration : undefined,
    kind: isVideo ? "video" : "audio",
  };
}

export interface StudioDeps {
  db: Database;
  generations: Generations;
  prices: Prices;
}

export function studioFeatures(deps: StudioDeps): Composer<BotContext>[] {
  const offers = createKvStorage(deps.db, "offer:", pendingSchema);
  async function offer(ctx: BotContext, input: GenerationParamsInput): Promise<void> {
    const parsed = generationParams.safeParse(input);
    if (!parsed.success) {
      await ctx.reply(ctx.t("quick-invalid", { problem: parsed.error.issues[0]?.message ?? "" }));
      return;
    }
    const params = parsed.data;
    const price = quote(deps.prices, params);
    if (!price.ok) {
      await ctx.reply(ctx.t("quick-no-price"));
      return;
    }
    const id = randomBytes(9).toString("base64url");
    const pending: Pending = {
      userId: ctx.from!.id,
      chatId: ctx.chat!.id,
      threadId: ctx.msg?.is_topic_message ? (ctx.msg.message_thread_id ?? null) : null,
      replyTo: ctx.msg?.message_id ?? null,
      params,
    };
    await offers.write(id, pending);
    const keyboard = new InlineKeyboard()
      .text(ctx.t("btn-confirm"), confirmData(id))
      .text(ctx.t("btn-cancel"), cancelData(id));
    await ctx.reply(
      ctx.t("gen-confirm-summary", {
        operation: opName(ctx, params.operation),
        prompt: describeParams(params),
        price: price.credits,
      }),
      {
        reply_markup: keyboard,
        ...(pending.threadId ? { message_thread_id: pending.threadId } : {}),
        ...(pending.replyTo
          ? { reply_parameters: { message_id: pending.replyTo, allow_sending_without_reply: true } }
          : {}),
      },
    );
  }

  const commands = new Composer<BotContext>();

  commands.command("image", async (ctx) => {
    const prompt = ctx.match.trim();
    if (!prompt) return void (await ctx.reply(ctx.t("quick-usage-image")));
    await offer(ctx, {
      operation: "image",
      prompt,
      model: defaultImageModel,
      imageSize: "1:1",
      numImages: 1,
    });
  });

  commands.command("video", async (ctx) => {
    const prompt = ctx.match.trim();
    if (!prompt) return void (await ctx.reply(ctx.t("quick-usage-video")));
    const info = videoModels[defaultVideoModel];
    await offer(ctx, {
      operation: "video",
      prompt,
      model: defaultVideoModel,
      duration: info.defaultDuration,
      resolution: info.defaultResolution,
      aspectRatio: info.defaultAspectRatio,
    });
  });

  async function offerEdit(ctx: BotContext, prompt: string, ref: InputRef | undefined) {
    if (!prompt || !ref) return void (await ctx.reply(ctx.t("quick-usage-edit")));
    if (ref.kind === "telegram" && (ref.size ?? 0) > telegramDownloadMaxBytes) {
      return void (await ctx.reply(ctx.t("input-too-big-telegram", { max: 20 })));
    }
    await offer(ctx, {
      operation: "edit",
      prompt,
      model: defaultImageModel,
      imageSize: "1:1",
      numImages: 1,
      images: [ref],
    });
  }

  commands.command("edit", (ctx) =>
    offerEdit(ctx, ctx.match.trim(), photoRef(ctx.msg) ?? photoRef(ctx.msg.reply_to_message)),
  );

  // grammY matches commands in message text only; a photo's caption "/edit …" is read here
  commands.on(["message:photo", "message:document"], async (ctx, next) => {
    const m = /^\/edit(?:@\w+)?(?:\s+([\s\S]*))?$/.exec(ctx.msg.caption ?? "");
    if (!m) return next();
    await offerEdit(ctx, (m[1] ?? "").trim(), photoRef(ctx.msg));
  });

  commands.command("dub", async (ctx) => {
    const [target, link] = ctx.match.trim().split(/\s+/);
    const lang = target?.toLowerCase();
    if (!lang || !(dubbingLanguages as readonly string[]).includes(lang)) {
      return void (await ctx.reply(ctx.t("quick-usage-dub", { languages: dubbingLanguages.join(" ") })));
    }
    if (link) {
      if (!/^https:\/\//i.test(link)) return void (await ctx.reply(ctx.t("input-link-not-https")));
      await offer(ctx, {
        operation: "dub",
        source: { kind: "url", url: link },
        targetLanguage: lang,
        sourceLanguage: "auto",
      });
      return;
    }
    const media = mediaRef(ctx.msg.reply_to_message) ?? mediaRef(ctx.msg);
    if (!media)
      return void (await ctx.reply(ctx.t("quick-usage-dub", { languages: dubbingLanguages.join(" ") })));
    const size = media.ref.kind === "telegram" ? (media.ref.size ?? 0) : 0;
    if (size > telegramDownloadMaxBytes)
      return void (await ctx.reply(ctx.t("input-too-big-telegram", { max: 20 })));
    if (media.duration !== undefined && media.duration > limits.dubbingMaxSeconds) {
      return void (await ctx.reply(ctx.t("input-too-long", { max: limits.dubbingMaxSeconds / 60 })));
    }
    await offer(ctx, {
      operation: "dub",
      source: media.ref,
      targetLanguage: lang,
      sourceLanguage: "auto",
      kind: media.kind,
      ...(media.duration !== undefined ? { durationSeconds: media.duration } : {}),
    });
  });

  const buttons = new Composer<BotContext>();

  buttons.callbackQuery(/^qc:([A-Za-z0-9_-]{12})$/, async (ctx) => {
    await ctx.answerCallbackQuery();
    const id = ctx.match[1]!;
    const pending = await offers.read(id);
    if (!pending) return void (await ctx.editMessageText(ctx.t("quick-expired")).catch(() => undefined));
    if (pending.userId !== ctx.from.id) return;
    const result = await deps.generations.create({
      key: `offer-${id}`,
      userId: pending.userId,
      language: language(ctx),
      chat: {
        chatId: pending.chatId,
        threadId: pending.threadId,
        replyToMessageId: pending.replyTo,
        statusMessageId: ctx.callbackQuery.message?.message_id ?? null,
      },
      params: pending.params,
    });
    if (result.ok) {
      if (!result.created) return;
      const text = ctx.t("gen-queued");
      await ctx.editMessageText(text);
      await deps.generations.setStatusShown(result.generation.id, text);
      return;
    }
    if (result.reason === "insufficient") {
      await ctx.editMessageText(
        ctx.t("gen-insufficient", {
          price: result.price,
          available: result.available,
          missing: result.missing,
        }),
      );
      return;
    }
    await ctx.editMessageText(
      ctx.t(result.reason === "no_price" ? "quick-no-price" : "quick-invalid", { problem: "" }),
    );
  });

  buttons.callbackQuery(/^qx:([A-Za-z0-9_-]{12})$/, async (ctx) => {
    await ctx.answerCallbackQuery();
    const store = offers;
    const pending = await store.read(ctx.match[1]!);
    if (pending && pending.userId !== ctx.from.id) return;
    await store.delete(ctx.match[1]!);
    await ctx.editMessageText(ctx.t("quick-cancelled")).catch(() => undefined);
  });

  buttons.callbackQuery(/^(rg|ed):([0-9a-f-]{36})$/, async (ctx) => {
    await ctx.answerCallbackQuery();
    const g = await deps.generations.get(ctx.match[2]!);
    if (!g || g.userId !== ctx.from.id) return;
    if (ctx.match[1] === "ed") {
      await ctx.reply(ctx.t("edit-how"));
      return;
    }
    await offer(ctx, deps.generations.paramsOf(g));
  });

  return [buttons, commands];
}
