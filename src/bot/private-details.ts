import { type Api, type Context, InlineKeyboard } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";
import { forAudience } from "../platform/i18n/audience";
import { negotiateLanguage, type Translate, translate } from "../platform/i18n/i18n";
import type { Language } from "../platform/i18n/language";
import { isTelegramFailure } from "../platform/telegram/telegram-error";
import type { BotContext } from "./context";

/**
 * What `/start <payload>` shows in a private chat: the personal details a
 * member asked for in a group, when the bot could not write to them there.
 */
export const detailStarts = ["balance", "history", "topup", "plans", "privacy"] as const;
export type DetailStart = (typeof detailStarts)[number];

export const isDetailStart = (match: unknown): match is DetailStart =>
  (detailStarts as readonly unknown[]).includes(match);

/** One message of personal details. */
export interface Details {
  text: string;
  reply_markup?: InlineKeyboard | InlineKeyboardMarkup;
}

/** The sender's words for their private chat, whatever chat the update came from. */
export function privateWords(ctx: Pick<BotContext, "user" | "from">): Translate {
  return forAudience("private", (key, vars) => translate(negotiateLanguage(ctx), key, vars));
}

/** The "🔒 Open a private chat" button: a deep link whose `/start` shows the details. */
export function openPrivateChat(t: Translate, botUsername: string, payload: DetailStart): InlineKeyboard {
  return new InlineKeyboard().url(t("private-open-button"), `https://t.me/${botUsername}?start=${payload}`);
}

/**
 * Sends personal details to the member's private chat; false when the bot
 * cannot write there (never started, blocked). Other failures are thrown.
 */
export async function sendPrivately(api: Api, userId: number, details: readonly Details[]): Promise<boolean> {
  try {
    for (const d of details) {
      await api.sendMessage(userId, d.text, d.reply_markup ? { reply_markup: d.reply_markup } : {});
    }
    return true;
  } catch (err) {
    if (isTelegramFailure(err, "blocked", "chat-unreachable")) return false;
    throw err;
  }
}

/**
 * The one way a handler shows what belongs to one person's account (balance,
 * history, packs with the balance): in a private chat, as an answer; asked in
 * a group (or a topic), the group reads only a neutral line, and the details
 * go to the member's private chat, or, when the bot cannot write there, the
 * neutral line carries a button opening it (`/start <payload>` shows them).
 * `build` is given the words of the private chat, and their language.
 */
export async function showPrivately(
  ctx: BotContext & Context,
  payload: DetailStart,
  build: (t: Translate, language: Language) => Promise<Details[]>,
): Promise<void> {
  if (!ctx.from) return;
  if (ctx.chat?.type === "private") {
    for (const d of await build((key, vars) => ctx.t(key, vars), negotiateLanguage(ctx))) {
      await ctx.reply(d.text, d.reply_markup ? { reply_markup: d.reply_markup } : {});
    }
    return;
  }
  const sent = await sendPrivately(
    ctx.api,
    ctx.from.id,
    await build(privateWords(ctx), negotiateLanguage(ctx)),
  );
  const name = ctx.from.first_name;
  const replyTo = ctx.msg?.message_id;
  const reply = replyTo
    ? { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } }
    : {};
  if (sent) await ctx.reply(ctx.t("private-sent-group", { name }), reply);
  else
    await ctx.reply(ctx.t("private-open-group", { name }), {
      ...reply,
      reply_markup: openPrivateChat((key, vars) => ctx.t(key, vars), ctx.me.username, payload),
    });
}
