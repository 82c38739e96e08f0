import type { BotCommand, Chat, MenuButton, Message, User } from "grammy/types";
import type { BotMessage, ChatState } from "./chats";
import * as blocking from "./user-block";
import * as paying from "./user-pay";
import { post, type SendOptions } from "./user-post";
import * as pressing from "./user-press";
import * as reading from "./user-read";
import * as sending from "./user-send";
import { createUserState, type GroupChat, type UserOptions, type UserState } from "./user-state";
import type { WebAppLaunch, WebAppTheme } from "./webapp";
import type { CallbackAnswer, InvoiceLinkState, World } from "./world";

export type { FileSpec } from "./user-send";
export type { UserOptions } from "./user-state";

type Where = SendOptions & { in?: GroupChat };

/** A Telegram user played by a test; what the user does lives in user-send, -press, -pay, -read, -block. */
export class TestUser {
  readonly info: User;
  private readonly state: UserState;

  constructor(world: World, options: UserOptions) {
    this.state = createUserState(world, options);
    this.info = this.state.info;
  }

  get id(): number {
    return this.info.id;
  }

  get chatId(): number {
    return this.info.id;
  }

  get chat(): Chat {
    return this.state.chat.chat;
  }

  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: conversations.test.ts posts a sticker (no helper for it) through this and post
  private get chatState(): ChatState {
    return this.state.chat;
  }

  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: see chatState
  private post(chat: ChatState, content: Record<string, unknown>, options: SendOptions): Message {
    return post(this.state, chat, content, options);
  }

  // ---- sending

  /** Sends text to the bot in the private chat; returns the message the update carries. */
  async send(text: string, options: SendOptions = {}): Promise<Message> {
    return sending.sendText(this.state, text, options);
  }

  async replyTo(message: Message | number, text: string): Promise<Message> {
    return sending.replyTo(this.state, message, text);
  }

  /** Forwards a message (another user's) into this user's private chat with the bot. */
  async forwardToBot(original: Message, options: { hiddenSender?: boolean } = {}): Promise<Message> {
    return sending.forwardToBot(this.state, original, options);
  }

  /** Sends text in a group (as a member), optionally in a forum topic. */
  async sendIn(group: GroupChat, text: string, options: SendOptions = {}): Promise<Message> {
    return sending.sendIn(this.state, group, text, options);
  }

  async sendPhoto(photo: sending.PhotoSpec = {}, options: Where = {}): Promise<Message> {
    return sending.sendPhoto(this.state, photo, options);
  }

  /** Sends photos as an album: one update per photo, sharing a media_group_id. */
  sendAlbum(photos: sending.PhotoSpec[], options: Where = {}): Promise<Message[]> {
    return sending.sendAlbum(this.state, photos, options);
  }

  async sendDocument(file: sending.FileSpec, options: Where = {}): Promise<Message> {
    return sending.sendFile(this.state, "document", file, options);
  }

  async sendAudio(file: sending.FileSpec, options: Where = {}): Promise<Message> {
    return sending.sendFile(this.state, "audio", file, options);
  }

  async sendVideo(file: sending.FileSpec, options: Where = {}): Promise<Message> {
    return sending.sendFile(this.state, "video", file, options);
  }

  async sendVoice(file: sending.FileSpec, options: Where = {}): Promise<Message> {
    return sending.sendFile(this.state, "voice", file, options);
  }

  /** A round video message (no caption, no file name). */
  async sendVideoNote(file: sending.FileSpec, options: Where = {}): Promise<Message> {
    return sending.sendFile(this.state, "video_note", file, options);
  }

  /**
   * Types an inline query (@bot query) and returns its id. `chatType`: the
   * chat it is typed in, as Telegram reports it ("sender": the private chat with the bot).
   */
  inlineQuery(
    query: string,
    options: { offset?: string; chatType?: "sender" | "private" | "group" | "supergroup" } = {},
  ): string {
    return sending.inlineQuery(this.state, query, options);
  }

  async waitForInlineAnswer(queryId: string, options: { timeoutMs?: number } = {}) {
    return sending.waitForInlineAnswer(this.state, queryId, options);
  }

  // ---- pressing

  /**
   * Presses an inline button: by default the newest bot message that has a
   * matching button. Returns the callback query id.
   */
  async press(
    matcher: pressing.ButtonMatcher,
    options: { message?: Message | number; in?: GroupChat } = {},
  ): Promise<string> {
    return pressing.press(this.state, matcher, options);
  }

  /** The bot's answerCallbackQuery for a press, once it answered. */
  callbackAnswer(queryId: string): CallbackAnswer | undefined {
    return pressing.callbackAnswer(this.state, queryId);
  }

  /** Waits until the bot answers the callback query. */
  async waitForAnswer(queryId: string, options: { timeoutMs?: number } = {}): Promise<CallbackAnswer> {
    return pressing.waitForAnswer(this.state, queryId, options);
  }

  /**
   * Taps result `resultId` of the bot's answer to `queryId`, sending it into
   * `chat` (a group) or, by default, this user's private chat with the bot.
   * See `placeInlineResult` for what Telegram does then.
   */
  chooseInlineResult(
    queryId: string,
    resultId: string,
    options: { chat?: GroupChat } = {},
  ): { message: Message; inlineMessageId: string | undefined } {
    return pressing.chooseInlineResult(this.state, queryId, resultId, options);
  }

  /** Presses a button of an inline message (anyone in its chat may); returns the callback query id. */
  pressInline(inlineMessageId: string, matcher: pressing.ButtonMatcher): string {
    return pressing.pressInline(this.state, inlineMessageId, matcher);
  }

  /**
   * Opens a Mini App as Telegram's client would: from the private chat's menu
   * button ("menu"), or from the web_app button of the newest bot message that
   * has a matching one (`message`: that message). The URL to load carries the
   * launch parameters: init data signed with the bot token for this user.
   */
  openWebApp(
    from: "menu" | pressing.ButtonMatcher,
    options: { message?: Message | number; theme?: WebAppTheme } = {},
  ): WebAppLaunch {
    return pressing.openWebApp(this.state, from, options);
  }

  // ---- paying

  /**
   * Pays an invoice the bot sent: a pre_checkout_query, then, if the bot
   * approves in time, a successful_payment message. `deliverTwice`: Telegram
   * delivers that same message again in a second update (a new update_id), as
   * it may after a lost acknowledgement. `loseUpdate`: the Stars are taken
   * and the message is in the chat, but the bot never gets its update (lost
   * in a crash); `deliverLate(message)` hands it over later.
   *
   * An invoice link (createInvoiceLink's `https://t.me/$<slug>`, or its slug)
   * is paid the same way, as a Mini App's openInvoice pays it: the
   * successful_payment lands in this user's private chat with the bot. A link
   * may be paid any number of times, by anyone.
   */
  pay(invoice: Message | number | string, options: paying.PayOptions = {}): Promise<paying.PaymentOutcome> {
    return paying.pay(this.state, invoice, options);
  }

  /**
   * A subscription period passes: each of this user's Stars subscriptions
   * still renewing is charged again and the bot gets the renewal's
   * successful_payment (is_recurring); a cancelled one ends.
   */
  renewSubscriptions(options: paying.PayOptions = {}): paying.PaymentOutcome[] {
    return paying.renewSubscriptions(this.state, options);
  }

  /** The invoice a link stands for (title, description, price), as the payment form shows it. */
  invoiceLink(link: string): InvoiceLinkState | undefined {
    return paying.invoiceLink(this.state, link);
  }

  /** Delivers (again, or late: `pay`'s `loseUpdate`) the update of a message in this user's chat. */
  deliverLate(message: Message): void {
    paying.deliverLate(this.state, message);
  }

  // ---- blocking

  /**
   * The user blocks the bot. `unnoticed`: the bot never got the news (its
   * update was lost while the bot was down for over a day, as Telegram drops
   * such updates); it learns only from a 403 on its next send.
   */
  async block(options: { unnoticed?: boolean } = {}): Promise<void> {
    blocking.setBlocked(this.state, true, options.unnoticed ?? false);
  }

  async unblock(): Promise<void> {
    blocking.setBlocked(this.state, false);
  }

  // ---- reading

  /** Bot messages in this chat, in order, in their current state (deleted ones only when asked). */
  messages(options: { includeDeleted?: boolean; in?: GroupChat } = {}): BotMessage[] {
    return reading.botMessages(this.state, options);
  }

  lastMessage(): BotMessage | undefined {
    return this.messages().at(-1);
  }

  /** The reply keyboard the user currently sees, if any. */
  keyboard(): Record<string, unknown> | undefined {
    return this.state.chat.keyboard;
  }

  /** The menu button beside the composer in this user's private chat with the bot. */
  menuButton(): MenuButton {
    return reading.menuButton(this.state);
  }

  /** The command menu Telegram shows this user in the private chat, or `in` a group (as its admin or a member). */
  commandMenu(options: { in?: GroupChat } = {}): BotCommand[] {
    return reading.commandMenu(this.state, options);
  }

  /**
   * The first bot message in this chat (or `in` a group) that matches, in its
   * current state; waits for one. `after` skips messages up to that one.
   */
  async waitFor(
    predicate: (message: BotMessage) => unknown,
    options: { timeoutMs?: number; after?: Message | number; in?: GroupChat } = {},
  ): Promise<BotMessage> {
    return reading.waitForBotMessage(this.state, predicate, options);
  }

  transcript(): string {
    return reading.transcript(this.state);
  }
}
