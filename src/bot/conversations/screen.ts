import type { Conversation } from "@grammyjs/conversations";
import { type Context, InlineKeyboard } from "grammy";
import {
  type PanelAction,
  panelData,
  panelPrefix,
  parsePanelAction,
} from "../../platform/telegram/callback-data";
import { classifyTelegramError, isTelegramFailure } from "../../platform/telegram/telegram-error";
import type { BotContext } from "../context";

export type Conv = Conversation<BotContext, Context>;

import type { Translate } from "../../platform/i18n/i18n";

/** What a step waits for: a press on its own message, or a message from the user. */
export type ScreenEvent =
  | { type: "button"; action: PanelAction; ctx: Context }
  | { type: "message"; ctx: Context };

const floodRetries = 4;
const floodWaitMaxSeconds = 10;

const notModified = (err: unknown) => isTelegramFailure(err, "not-modified");
const gone = (err: unknown) => isTelegramFailure(err, "message-gone");

/** Inline buttons as a comparable string; none and an empty keyboard are the same. */
function buttonsOf(markup: { inline_keyboard: unknown[][] } | undefined): string {
  const rows = markup?.inline_keyboard.filter((row) => row.length > 0) ?? [];
  return rows.length === 0 ? "" : JSON.stringify(rows);
}

/** A message starting with a bot command: it belongs to the command handlers, not to the step. */
function isCommand(ctx: Context): boolean {
  const m = ctx.message;
  const entities = m?.entities ?? m?.caption_entities;
  return Boolean(entities?.some((e) => e.type === "bot_command" && e.offset === 0));
}

/**
 * The message a conversation talks through. It is edited in place while the
 * user presses buttons; after the user writes something, the next screen is a
 * new message below theirs (and the old one loses its buttons), so the current
 * step is always at the bottom of the chat.
 *
 * Every Bot API call here goes through the conversation's own `ctx.api`, which
 * the plugin records and replays.
 */
export class Screen {
  messageId: number | undefined;
  private stale = false;
  /**
   * What the message shows (text and buttons), so an edit that would change
   * nothing is not sent (Telegram: "message is not modified"). Kept in the
   * conversation's own flow, so a replay takes the same decisions.
   */
  private shown: { text: string; buttons: string } | undefined;

  constructor(
    private readonly conversation: Conv,
    private readonly ctx: Context,
    readonly chatId: number,
    readonly t: Translate,
    private readonly threadId: number | undefined,
  ) {}

  /**
   * Runs a Bot API call, waiting out Telegram's flood control (429) a few
   * times. The wait is an `external`, so a replay, which reads the recorded
   * answers, does not wait again.
   */
  private async call<T>(send: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await send();
      } catch (err) {
        const failure = classifyTelegramError(err);
        if (failure?.kind !== "flood" || attempt >= floodRetries) throw err;
        const seconds = Math.min(failure.retryAfter, floodWaitMaxSeconds);
        await this.conversation.external(() => new Promise((resolve) => setTimeout(resolve, seconds * 1000)));
      }
    }
  }

  /** Computes a value once; replays read the recorded one (what the user saw, even after a restart). */
  once<T>(compute: () => T): Promise<T> {
    return this.conversation.external(() => compute());
  }

  get isPrivate(): boolean {
    return this.ctx.chat?.type === "private";
  }

  /** Shows `text` with `keyboard` on the conversation's message. */
  async show(text: string, keyboard: InlineKeyboard | undefined): Promise<number> {
    const wanted = { text, buttons: buttonsOf(keyboard) };
    if (this.messageId !== undefined && !this.stale) {
      const id = this.messageId;
      if (this.shown?.text === wanted.text && this.shown.buttons === wanted.buttons) return id;
      try {
        await this.call(() =>
          this.ctx.api.editMessageText(this.chatId, id, text, {
            reply_markup: keyboard ?? new InlineKeyboard(),
          }),
        );
        this.shown = wanted;
        return id;
      } catch (err) {
        if (notModified(err)) {
          this.shown = wanted;
          return id;
        }
        if (!gone(err)) throw err;
      }
    }
    await this.stripButtons();
    const sent = await this.call(() =>
      this.ctx.api.sendMessage(this.chatId, text, {
        ...(keyboard ? { reply_markup: keyboard } : {}),
        ...(this.threadId ? { message_thread_id: this.threadId } : {}),
      }),
    );
    this.messageId = sent.message_id;
    this.shown = wanted;
    this.stale = false;
    return sent.message_id;
  }

  /**
   * Asks for text. In groups the bot only sees replies to itself (privacy
   * mode), so there the question forces a reply instead of carrying buttons.
   */
  async ask(text: string, keyboard: InlineKeyboard): Promise<number> {
    if (this.isPrivate) return this.show(text, keyboard);
    await this.stripButtons();
    const replyTo = this.ctx.msg?.message_id;
    const sent = await this.call(() =>
      this.ctx.api.sendMessage(this.chatId, text, {
        reply_markup: { force_reply: true, selective: true },
        ...(this.threadId ? { message_thread_id: this.threadId } : {}),
        ...(replyTo ? { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } } : {}),
      }),
    );
    this.messageId = sent.message_id;
    this.shown = { text, buttons: "" };
    this.stale = false;
    return sent.message_id;
  }

  /** A separate short notice (an error about an input); the step goes on. */
  async notice(text: string): Promise<void> {
    await this.call(() =>
      this.ctx.api.sendMessage(this.chatId, text, this.threadId ? { message_thread_id: this.threadId } : {}),
    );
    this.stale = true;
  }

  /** Copies messages of `fromChatId` into this chat as they are (a preview); an album stays one. */
  async copyHere(fromChatId: number, messageIds: number[]): Promise<void> {
    const [first] = messageIds;
    if (first === undefined) return;
    const options = this.threadId ? { message_thread_id: this.threadId } : {};
    if (messageIds.length === 1) {
      await this.call(() => this.ctx.api.copyMessage(this.chatId, fromChatId, first, options));
    } else {
      await this.call(() => this.ctx.api.copyMessages(this.chatId, fromChatId, messageIds, options));
    }
    this.stale = true;
  }

  /** Leaves the conversation's message with `text` and no buttons. */
  async close(text: string): Promise<void> {
    await this.show(text, undefined);
  }

  /** Leaves the current message as it is; the next screen is a new message. */
  detach(): void {
    this.messageId = undefined;
    this.shown = undefined;
  }

  /** The next screen edits the current message even after a user message (album photos). */
  keepPlace(): void {
    this.stale = false;
  }

  async chatAction(action: "typing" | "upload_photo" | "upload_video" | "upload_voice"): Promise<void> {
    await this.ctx.api
      .sendChatAction(this.chatId, action, this.threadId ? { message_thread_id: this.threadId } : {})
      .catch(() => undefined);
  }

  private async stripButtons(): Promise<void> {
    if (this.messageId === undefined) return;
    const id = this.messageId;
    const hadButtons = this.shown === undefined || this.shown.buttons !== "";
    this.messageId = undefined;
    this.shown = undefined;
    if (!hadButtons) return;
    try {
      await this.call(() =>
        this.ctx.api.editMessageReplyMarkup(this.chatId, id, { reply_markup: new InlineKeyboard() }),
      );
    } catch (err) {
      if (!(notModified(err) || gone(err))) throw err;
    }
  }

  /** The next press of one of this screen's buttons; typed text is answered with "use the buttons". */
  async nextPress(): Promise<PanelAction> {
    for (;;) {
      const event = await this.next();
      if (event.type === "button") return event.action;
      await this.notice(this.t("cv-use-buttons"));
    }
  }

  /**
   * The next update for this step. Presses on this screen's message and plain
   * messages come back; a command, a payment, a button of another feature or
   * any other update is handed on to the rest of the bot (`skip` with `next`),
   * and the conversation stays where it is.
   */
  async next(): Promise<ScreenEvent> {
    for (;;) {
      const ctx = await this.conversation.wait();
      const query = ctx.callbackQuery;
      if (query) {
        if (!query.data?.startsWith(panelPrefix)) {
          await this.conversation.skip({ next: true });
          continue;
        }
        const action = parsePanelAction(query.data);
        const onThisScreen = query.message?.message_id === this.messageId;
        if (!action || !onThisScreen) {
          await answer(ctx, this.t("cv-expired-button"));
          await dropStaleButtons(ctx);
          continue;
        }
        await answer(ctx);
        if (action.kind === "noop") continue;
        return { type: "button", action, ctx };
      }
      const message = ctx.message;
      if (!message || isCommand(ctx) || message.successful_payment || message.refunded_payment) {
        await this.conversation.skip({ next: true });
        continue;
      }
      // In a group only an answer to the bot is meant for it (with privacy mode off it sees everything).
      if (!this.isPrivate && message.reply_to_message?.from?.id !== ctx.me.id) {
        await this.conversation.skip({ next: true });
      }
      this.stale = true;
      return { type: "message", ctx };
    }
  }
}

/**
 * Answers a press at once (Telegram shows a spinner until then). A press that
 * waited too long (the bot was down) can no longer be answered; the step goes on.
 */
async function answer(ctx: Context, text?: string): Promise<void> {
  try {
    await ctx.answerCallbackQuery(text ? { text } : {});
  } catch (err) {
    if (!classifyTelegramError(err)) throw err;
  }
}

/**
 * Removes the buttons a user pressed on a screen that is no longer active
 * (cosmetic: failures are ignored). Only in private chats: in a group the
 * message may be another member's live panel.
 */
export async function dropStaleButtons(ctx: Context): Promise<void> {
  const message = ctx.callbackQuery?.message;
  if (!message || ctx.chat?.type !== "private") return;
  // the press carries the message as it is: buttons already gone need no edit
  if (message.date === 0 || buttonsOf("reply_markup" in message ? message.reply_markup : undefined) === "")
    return;
  try {
    await ctx.editMessageReplyMarkup({ reply_markup: new InlineKeyboard() });
  } catch (err) {
    if (!classifyTelegramError(err)) throw err;
  }
}

/** Back and Cancel, the last row of every screen. */
export function navRow(keyboard: InlineKeyboard, t: Translate, options: { back: boolean }): InlineKeyboard {
  // on its own row below other buttons, without leaving an empty row (Telegram shows it as a gap)
  if ((keyboard.inline_keyboard.at(-1)?.length ?? 0) > 0) keyboard.row();
  if (options.back) keyboard.text(t("cv-btn-back"), panelData.back());
  return keyboard.text(t("cv-btn-cancel"), panelData.cancel());
}
