import { createHash } from "node:crypto";
import type {
  Chat,
  ChatMember,
  InlineKeyboardButton,
  MenuButton,
  Message,
  MessageEntity,
  Update,
  User,
} from "grammy/types";
import { type BotMessage, botMessageView, type ChatState, describeMessage } from "./chats";
import { solidPng } from "./images";
import { placeInlineResult, pressInlineButton } from "./inline";
import { commandMenuFor, menuButtonFor } from "./methods/bot";
import { invoiceSlug, launchWebApp, type WebAppLaunch, type WebAppTheme } from "./webapp";

/** A group a user posts in (a TestGroup): where the message goes. */
interface GroupChat {
  readonly state: ChatState;
}

import type { CallbackAnswer, InvoiceLinkState, InvoiceState, World } from "./world";

export interface PhotoSpec {
  bytes?: Buffer;
  width?: number;
  height?: number;
  caption?: string;
  mediaGroupId?: string;
  /** file_size to report instead of bytes.length, to play a big file without allocating it */
  declaredSize?: number;
}

export interface FileSpec {
  bytes?: Buffer;
  fileName?: string;
  mimeType?: string;
  duration?: number;
  caption?: string;
  declaredSize?: number;
  width?: number;
  height?: number;
  title?: string;
  performer?: string;
}

export interface SendOptions {
  replyTo?: Message | number;
  threadId?: number;
  /** formatting the user applied in their client (bold, links, …), besides the entities Telegram detects */
  entities?: MessageEntity[];
}

export type ButtonMatcher =
  | string
  | RegExp
  | ((button: InlineKeyboardButton, message: BotMessage) => boolean);

export interface UserOptions {
  language?: string;
  firstName?: string;
  lastName?: string;
  username?: string;
  premium?: boolean;
  /** the user started the bot before the test (an admin, say): the bot may write first */
  started?: boolean;
}

export type PaymentOutcome =
  | { ok: true; chargeId: string; message: Message }
  | { ok: false; reason: "declined"; errorMessage: string }
  | { ok: false; reason: "timeout" };

const waitTimeoutMs = 5000;

/** Entities Telegram's clients add to what a user types: commands, mentions, links. */
function userEntities(text: string): MessageEntity[] {
  const entities: MessageEntity[] = [];
  const re = /(^|\s)(\/[a-zA-Z0-9_]{1,32}(?:@[a-zA-Z0-9_]{3,32})?|@[a-zA-Z0-9_]{5,32}|https?:\/\/\S+)/g;
  for (const m of text.matchAll(re)) {
    const token = m[2]!;
    const offset = m.index + m[1]!.length;
    const type = token.startsWith("/") ? "bot_command" : token.startsWith("@") ? "mention" : "url";
    entities.push({ type, offset, length: token.length });
  }
  return entities;
}

function buttonMatches(matcher: ButtonMatcher, button: InlineKeyboardButton, message: BotMessage): boolean {
  if (typeof matcher === "string") return button.text === matcher;
  if (matcher instanceof RegExp) return matcher.test(button.text);
  return matcher(button, message);
}

/** A Telegram user played by a test. */
export class TestUser {
  readonly info: User;
  private readonly chatState: ChatState;

  constructor(
    private readonly world: World,
    options: UserOptions,
  ) {
    const id = world.newUserId();
    this.info = {
      id,
      is_bot: false,
      first_name: options.firstName ?? `User${id % 10_000}`,
      ...(options.lastName ? { last_name: options.lastName } : {}),
      ...(options.username ? { username: options.username } : {}),
      ...(options.language ? { language_code: options.language } : {}),
      ...(options.premium ? { is_premium: true as const } : {}),
    };
    const chat: Chat.PrivateChat = {
      id,
      type: "private",
      first_name: this.info.first_name,
      ...(options.lastName ? { last_name: options.lastName } : {}),
      ...(options.username ? { username: options.username } : {}),
    };
    this.chatState = world.chats.create(chat, [this.info], this.info);
    this.chatState.started = options.started === true;
  }

  get id(): number {
    return this.info.id;
  }

  get chatId(): number {
    return this.info.id;
  }

  get chat(): Chat {
    return this.chatState.chat;
  }

  // ---- sending

  /** Sends text to the bot in the private chat; returns the message the update carries. */
  async send(text: string, options: SendOptions = {}): Promise<Message> {
    const entities = [...userEntities(text), ...(options.entities ?? [])].sort((a, b) => a.offset - b.offset);
    return this.post(this.chatState, { text, ...(entities.length > 0 ? { entities } : {}) }, options);
  }

  async replyTo(message: Message | number, text: string): Promise<Message> {
    const target = this.chatOf(message);
    const entities = userEntities(text);
    return this.post(target, { text, ...(entities.length > 0 ? { entities } : {}) }, { replyTo: message });
  }

  /** Sends text in a group (as a member), optionally in a forum topic. */
  async sendIn(group: GroupChat, text: string, options: SendOptions = {}): Promise<Message> {
    const entities = userEntities(text);
    return this.post(group.state, { text, ...(entities.length > 0 ? { entities } : {}) }, options);
  }

  async sendPhoto(photo: PhotoSpec = {}, options: SendOptions & { in?: GroupChat } = {}): Promise<Message> {
    const width = photo.width ?? 800;
    const height = photo.height ?? 600;
    const bytes = photo.bytes ?? solidPng(width, height);
    const sizes = this.world.files.photoSizes(bytes, width, height, photo.declaredSize);
    const content: Record<string, unknown> = { photo: sizes };
    if (photo.caption !== undefined) Object.assign(content, this.captionContent(photo.caption));
    if (photo.mediaGroupId) content.media_group_id = photo.mediaGroupId;
    return this.post(options.in?.state ?? this.chatState, content, options);
  }

  /** Sends photos as an album: one update per photo, sharing a media_group_id. */
  async sendAlbum(photos: PhotoSpec[], options: SendOptions & { in?: GroupChat } = {}): Promise<Message[]> {
    const mediaGroupId = `${13_000_000_000_000_000 + Math.floor(Math.random() * 1e15)}`;
    const sent: Message[] = [];
    for (const photo of photos) sent.push(await this.sendPhoto({ ...photo, mediaGroupId }, options));
    return sent;
  }

  async sendDocument(file: FileSpec, options: SendOptions & { in?: GroupChat } = {}): Promise<Message> {
    return this.sendFile("document", file, options);
  }

  async sendAudio(file: FileSpec, options: SendOptions & { in?: GroupChat } = {}): Promise<Message> {
    return this.sendFile("audio", file, options);
  }

  async sendVideo(file: FileSpec, options: SendOptions & { in?: GroupChat } = {}): Promise<Message> {
    return this.sendFile("video", file, options);
  }

  async sendVoice(file: FileSpec, options: SendOptions & { in?: GroupChat } = {}): Promise<Message> {
    return this.sendFile("voice", file, options);
  }

  private async sendFile(
    kind: "document" | "audio" | "video" | "voice",
    spec: FileSpec,
    options: SendOptions & { in?: GroupChat },
  ): Promise<Message> {
    const defaults = {
      document: ["file.pdf", "application/pdf"],
      audio: ["audio.mp3", "audio/mpeg"],
      video: ["video.mp4", "video/mp4"],
      voice: ["voice.ogg", "audio/ogg"],
    } as const;
    const bytes = spec.bytes ?? Buffer.alloc(Math.min(spec.declaredSize ?? 1024, 1024), 7);
    const fileName = spec.fileName ?? defaults[kind][0];
    const mime = spec.mimeType ?? defaults[kind][1];
    const file = this.world.files.add({
      kind,
      bytes,
      size: spec.declaredSize ?? bytes.length,
      name: fileName,
      mime,
      ...(spec.duration !== undefined ? { duration: spec.duration } : {}),
    });
    const base = { file_id: file.fileId, file_unique_id: file.uniqueId, file_size: file.size };
    const named = { ...base, file_name: fileName, mime_type: mime };
    const duration = spec.duration ?? 1;
    const body = {
      document: { document: named },
      audio: {
        audio: {
          ...named,
          duration,
          ...(spec.title ? { title: spec.title } : {}),
          ...(spec.performer ? { performer: spec.performer } : {}),
        },
      },
      video: { video: { ...named, duration, width: spec.width ?? 1280, height: spec.height ?? 720 } },
      voice: { voice: { ...base, duration, mime_type: mime } },
    }[kind];
    const content: Record<string, unknown> = { ...body };
    if (spec.caption !== undefined && kind !== "voice")
      Object.assign(content, this.captionContent(spec.caption));
    return this.post(options.in?.state ?? this.chatState, content, options);
  }

  private captionContent(caption: string): Record<string, unknown> {
    const entities = userEntities(caption);
    return { caption, ...(entities.length > 0 ? { caption_entities: entities } : {}) };
  }

  private chatOf(message: Message | number): ChatState {
    if (typeof message === "number") return this.chatState;
    const state = this.world.chats.get(message.chat.id);
    if (!state) throw new Error(`no chat ${message.chat.id}`);
    return state;
  }

  /** Stores a message from this user and delivers it as an update when the bot would see it. */
  private post(chat: ChatState, content: Record<string, unknown>, options: SendOptions): Message {
    if (chat.chat.type !== "private" && !chat.members.has(this.id)) {
      throw new Error(`${this.info.first_name} is not a member of ${chat.chat.id}`);
    }
    const extra: Record<string, unknown> = {};
    if (options.replyTo !== undefined) {
      const id = typeof options.replyTo === "number" ? options.replyTo : options.replyTo.message_id;
      const target = chat.byId.get(id);
      if (!target) throw new Error(`no message ${id} in chat ${chat.chat.id} to reply to`);
      const { reply_to_message: _nested, ...quoted } = target.message;
      extra.reply_to_message = quoted;
      if (options.threadId === undefined && target.message.is_topic_message) {
        extra.message_thread_id = target.message.message_thread_id;
        extra.is_topic_message = true;
      }
    }
    if (options.threadId !== undefined) {
      const forum = chat.chat.type === "supergroup" && chat.chat.is_forum;
      if (!forum) throw new Error(`chat ${chat.chat.id} is not a forum`);
      chat.topics.add(options.threadId);
      extra.message_thread_id = options.threadId;
      extra.is_topic_message = true;
    }
    if (chat.chat.type === "private") {
      chat.started = true;
      if (chat.blocked) this.setBlocked(false);
    }
    const message = this.world.chats.add(chat, { ...content, ...extra }, this.info, false);
    const seen = this.botSees(chat, message);
    this.world.chats.log(
      chat,
      `${this.info.first_name} #${message.message_id}: ${describeMessage(message)}${seen ? "" : " (not seen by the bot: privacy mode)"}`,
    );
    if (seen) this.world.updates.push({ message });
    return message;
  }

  /** Privacy mode: in groups the bot sees only commands (to it or to nobody) and replies to itself. */
  private botSees(chat: ChatState, message: Message): boolean {
    if (chat.chat.type === "private" || !this.world.rules.groupPrivacy) return true;
    if (message.reply_to_message?.from?.id === this.world.botUser.id) return true;
    const text = message.text ?? message.caption ?? "";
    const command = /^\/[a-zA-Z0-9_]+(?:@([a-zA-Z0-9_]+))?/.exec(text);
    if (!command) return false;
    return (
      command[1] === undefined || command[1].toLowerCase() === this.world.botUser.username?.toLowerCase()
    );
  }

  // ---- buttons, queries, payments

  /**
   * Presses an inline button: by default the newest bot message that has a
   * matching button. Returns the callback query id.
   */
  async press(
    matcher: ButtonMatcher,
    options: { message?: Message | number; in?: GroupChat } = {},
  ): Promise<string> {
    const chat =
      options.in?.state ?? (options.message !== undefined ? this.chatOf(options.message) : this.chatState);
    const wanted =
      options.message === undefined
        ? undefined
        : typeof options.message === "number"
          ? options.message
          : options.message.message_id;
    const candidates = chat.messages
      .filter((m) => m.fromBot && !m.deleted && (wanted === undefined || m.message.message_id === wanted))
      .reverse();
    for (const stored of candidates) {
      const view = botMessageView(stored);
      const keyboard = stored.message.reply_markup?.inline_keyboard ?? [];
      const button = keyboard.flat().find((b) => buttonMatches(matcher, b, view));
      if (!button) continue;
      if (!("callback_data" in button) || button.callback_data === undefined) {
        throw new Error(`button "${button.text}" has no callback_data: ${JSON.stringify(button)}`);
      }
      const id = this.world.newQueryId();
      this.world.callbackQueries.set(id, {
        id,
        userId: this.id,
        chatId: chat.chat.id,
        messageId: stored.message.message_id,
        data: button.callback_data,
        at: Date.now(),
      });
      this.world.chats.log(
        chat,
        `${this.info.first_name} pressed "${button.text}" on #${stored.message.message_id}`,
      );
      this.world.updates.push({
        callback_query: {
          id,
          from: this.info,
          message: stored.message,
          chat_instance: createHash("sha1").update(String(chat.chat.id)).digest("hex").slice(0, 16),
          data: button.callback_data,
        },
      });
      return id;
    }
    throw new Error(
      `no inline button matching ${String(matcher)}${wanted !== undefined ? ` on message #${wanted}` : ""}\n${this.world.chats.transcript(chat.chat.id)}`,
    );
  }

  /** The bot's answerCallbackQuery for a press, once it answered. */
  callbackAnswer(queryId: string): CallbackAnswer | undefined {
    return this.world.callbackQueries.get(queryId)?.answer;
  }

  /** Waits until the bot answers the callback query. */
  async waitForAnswer(queryId: string, options: { timeoutMs?: number } = {}): Promise<CallbackAnswer> {
    return this.until(
      () => this.callbackAnswer(queryId),
      options.timeoutMs ?? waitTimeoutMs,
      `no answer to callback query ${queryId}`,
    );
  }

  /**
   * Types an inline query (@bot query) and returns its id. `chatType`: the
   * chat it is typed in, as Telegram reports it ("sender": the private chat with the bot).
   */
  inlineQuery(
    query: string,
    options: { offset?: string; chatType?: "sender" | "private" | "group" | "supergroup" } = {},
  ): string {
    const id = this.world.newQueryId();
    this.world.inlineQueries.set(id, { id, userId: this.id, query, at: Date.now() });
    this.world.updates.push({
      inline_query: {
        id,
        from: this.info,
        query,
        offset: options.offset ?? "",
        chat_type: options.chatType ?? "sender",
      },
    });
    return id;
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
    const chat = options.chat?.state ?? this.chatState;
    return placeInlineResult(this.world, this.info, chat, {
      queryId,
      resultId,
      ownPrivateChat: chat === this.chatState,
    });
  }

  /** Presses a button of an inline message (anyone in its chat may); returns the callback query id. */
  pressInline(inlineMessageId: string, matcher: ButtonMatcher): string {
    return pressInlineButton(this.world, this.info, inlineMessageId, (button, message) =>
      buttonMatches(matcher, button, message),
    );
  }

  async waitForInlineAnswer(queryId: string, options: { timeoutMs?: number } = {}) {
    return this.until(
      () => this.world.inlineQueries.get(queryId)?.answer,
      options.timeoutMs ?? waitTimeoutMs,
      `no answer to inline query ${queryId}`,
    );
  }

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
  async pay(
    invoice: Message | number | string,
    options: { deliverTwice?: boolean; loseUpdate?: boolean } = {},
  ): Promise<PaymentOutcome> {
    if (typeof invoice === "string") {
      const slug = invoiceSlug(invoice) ?? invoice;
      const details = this.world.invoiceLinks.get(slug);
      if (!details) throw new Error(`${invoice} is not an invoice link from the bot`);
      return this.payOnce(this.chatState, `invoice link ${slug}`, details, options);
    }
    const chat = this.chatOf(invoice);
    const messageId = typeof invoice === "number" ? invoice : invoice.message_id;
    const details = this.world.invoices.get(`${chat.chat.id}:${messageId}`);
    if (!details) throw new Error(`message #${messageId} is not an invoice from the bot`);
    // Telegram opens one payment form per invoice, and a paid invoice shows its receipt instead of Pay
    if (details.state === "paid") throw new Error(`invoice #${messageId} is already paid`);
    if (details.state === "paying") throw new Error(`invoice #${messageId} is being paid`);
    if (chat.byId.get(messageId)?.deleted) throw new Error(`invoice #${messageId} was deleted`);
    details.state = "paying";
    try {
      const outcome = await this.payOnce(chat, `invoice #${messageId}`, details, options);
      if (outcome.ok) details.state = "paid";
      return outcome;
    } finally {
      if (details.state === "paying") delete details.state;
    }
  }

  /** The invoice a link stands for (title, description, price), as the payment form shows it. */
  invoiceLink(link: string): InvoiceLinkState | undefined {
    return this.world.invoiceLinks.get(invoiceSlug(link) ?? link);
  }

  private async payOnce(
    chat: ChatState,
    what: string,
    details: Pick<InvoiceState, "payload" | "currency" | "total">,
    options: { deliverTwice?: boolean; loseUpdate?: boolean },
  ): Promise<PaymentOutcome> {
    const id = this.world.newQueryId();
    const answer = new Promise<{ ok: boolean; error_message?: string } | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.world.preCheckouts.delete(id);
        resolve(undefined);
      }, this.world.rules.preCheckoutTimeoutMs);
      this.world.preCheckouts.set(id, {
        id,
        userId: this.id,
        at: Date.now(),
        settle: (a) => {
          clearTimeout(timer);
          resolve(a);
        },
      });
    });
    this.world.chats.log(chat, `${this.info.first_name} pays ${what}`);
    this.world.updates.push({
      pre_checkout_query: {
        id,
        from: this.info,
        currency: details.currency,
        total_amount: details.total,
        invoice_payload: details.payload,
      },
    });
    const answered = await answer;
    if (!answered) {
      this.world.chats.log(chat, `payment timed out: no answer to pre_checkout_query`);
      return { ok: false, reason: "timeout" };
    }
    if (!answered.ok) {
      this.world.chats.log(chat, `payment declined by the bot: ${answered.error_message}`);
      return { ok: false, reason: "declined", errorMessage: answered.error_message ?? "" };
    }
    const chargeId = `stxch${this.world.newQueryId()}`;
    this.world.payments.set(chargeId, {
      chargeId,
      userId: this.id,
      amount: details.total,
      currency: details.currency,
      payload: details.payload,
      refunded: false,
      date: Math.floor(this.world.clock.now() / 1000),
    });
    const successful_payment = {
      currency: details.currency,
      total_amount: details.total,
      invoice_payload: details.payload,
      telegram_payment_charge_id: chargeId,
      provider_payment_charge_id: "",
    };
    if (options.loseUpdate) {
      const lost = this.world.chats.add(chat, { successful_payment }, this.info, false);
      this.world.chats.log(chat, `payment ${chargeId}: its update is lost, the bot never hears of it`);
      return { ok: true, chargeId, message: lost };
    }
    const message = this.post(chat, { successful_payment }, {});
    if (options.deliverTwice) {
      this.world.chats.log(chat, `successful_payment #${message.message_id} delivered again`);
      this.world.updates.push({ message: message as Message & Update.NonChannel });
    }
    return { ok: true, chargeId, message };
  }

  /** Delivers (again, or late: `pay`'s `loseUpdate`) the update of a message in this user's chat. */
  deliverLate(message: Message): void {
    this.world.chats.log(this.chatOf(message), `successful_payment #${message.message_id} delivered late`);
    this.world.updates.push({ message: message as Message & Update.NonChannel });
  }

  // ---- blocking

  /**
   * The user blocks the bot. `unnoticed`: the bot never got the news (its
   * update was lost while the bot was down for over a day, as Telegram drops
   * such updates); it learns only from a 403 on its next send.
   */
  async block(options: { unnoticed?: boolean } = {}): Promise<void> {
    this.setBlocked(true, options.unnoticed ?? false);
  }

  async unblock(): Promise<void> {
    this.setBlocked(false);
  }

  private setBlocked(blocked: boolean, unnoticed = false): void {
    if (this.chatState.blocked === blocked) return;
    this.chatState.blocked = blocked;
    this.world.chats.log(
      this.chatState,
      `${this.info.first_name} ${blocked ? "blocked" : "unblocked"} the bot`,
    );
    if (unnoticed) return;
    const date = Math.floor(this.world.clock.now() / 1000);
    const member: ChatMember = { status: "member", user: this.world.botUser };
    const kicked: ChatMember = { status: "kicked", user: this.world.botUser, until_date: 0 };
    this.world.updates.push({
      my_chat_member: {
        chat: this.chatState.chat,
        from: this.info,
        date,
        old_chat_member: blocked ? member : kicked,
        new_chat_member: blocked ? kicked : member,
      },
    });
  }

  // ---- reading

  /** Bot messages in this chat, in order, in their current state (deleted ones only when asked). */
  messages(options: { includeDeleted?: boolean; in?: GroupChat } = {}): BotMessage[] {
    const chat = options.in?.state ?? this.chatState;
    return chat.messages
      .filter((m) => m.fromBot && (options.includeDeleted || !m.deleted))
      .map(botMessageView);
  }

  lastMessage(): BotMessage | undefined {
    return this.messages().at(-1);
  }

  /** The reply keyboard the user currently sees, if any. */
  keyboard(): Record<string, unknown> | undefined {
    return this.chatState.keyboard;
  }

  /** The menu button beside the composer in this user's private chat with the bot. */
  menuButton(): MenuButton {
    return menuButtonFor(this.world, this.chatId);
  }

  /**
   * Opens a Mini App as Telegram's client would: from the private chat's menu
   * button ("menu"), or from the web_app button of the newest bot message that
   * has a matching one (`message`: that message). The URL to load carries the
   * launch parameters: init data signed with the bot token for this user.
   */
  openWebApp(
    from: "menu" | ButtonMatcher,
    options: { message?: Message | number; theme?: WebAppTheme } = {},
  ): WebAppLaunch {
    const theme = options.theme ? { theme: options.theme } : {};
    if (from === "menu") {
      const button = this.menuButton();
      if (button.type !== "web_app") throw new Error(`the menu button opens no Mini App: ${button.type}`);
      return launchWebApp(this.world, this.info, button.web_app.url, theme);
    }
    const wanted = typeof options.message === "number" ? options.message : options.message?.message_id;
    const found = this.chatState.messages
      .filter((m) => m.fromBot && !m.deleted && (wanted === undefined || m.message.message_id === wanted))
      .reverse()
      .flatMap((stored) =>
        (stored.message.reply_markup?.inline_keyboard ?? [])
          .flat()
          .filter((b) => buttonMatches(from, b, botMessageView(stored))),
      )
      .find((b) => "web_app" in b && b.web_app !== undefined);
    if (!found || !("web_app" in found) || !found.web_app)
      throw new Error(`no web_app button matching ${String(from)}\n${this.transcript()}`);
    return launchWebApp(this.world, this.info, found.web_app.url, theme);
  }

  /** The command menu Telegram shows this user in the private chat, or `in` a group (as its admin or a member). */
  commandMenu(options: { in?: GroupChat } = {}) {
    return commandMenuFor(this.world, options.in?.state.chat.id ?? this.chatId, {
      userId: this.id,
      language: this.info.language_code,
    });
  }

  /**
   * The first bot message in this chat (or `in` a group) that matches, in its
   * current state; waits for one. `after` skips messages up to that one.
   */
  async waitFor(
    predicate: (message: BotMessage) => unknown,
    options: { timeoutMs?: number; after?: Message | number; in?: GroupChat } = {},
  ): Promise<BotMessage> {
    const after = typeof options.after === "number" ? options.after : (options.after?.message_id ?? 0);
    const chat = options.in?.state ?? this.chatState;
    return this.until(
      () =>
        chat.messages
          .filter((m) => m.fromBot && !m.deleted && m.message.message_id > after)
          .map(botMessageView)
          .find((m) => predicate(m)),
      options.timeoutMs ?? waitTimeoutMs,
      "no bot message matched",
      chat.chat.id,
    );
  }

  private until<T>(
    probe: () => T | undefined,
    timeoutMs: number,
    what: string,
    chatId = this.chatId,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const found = probe();
      if (found !== undefined) return resolve(found);
      const timer = setTimeout(() => {
        unsubscribe();
        reject(new Error(`${what} within ${timeoutMs} ms\n${this.world.chats.transcript(chatId)}`));
      }, timeoutMs);
      const unsubscribe = this.world.onChange(() => {
        const value = probe();
        if (value === undefined) return;
        clearTimeout(timer);
        unsubscribe();
        resolve(value);
      });
    });
  }

  transcript(): string {
    return this.world.chats.transcript(this.chatId);
  }
}
