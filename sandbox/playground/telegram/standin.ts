import { join, resolve } from "node:path";
import type { Update, User } from "grammy/types";
import { type Clock, systemClock } from "../../../src/platform/lib/clock";
import type { BotMessage, ChatState } from "./chats";
import { ApiError, type Envelope } from "./errors";
import { createGroup, type GroupOptions, type TestGroup } from "./groups";
import { inlineMessageView } from "./inline";
import { commandMenuFor } from "./methods/bot";
import { Params } from "./params";
import { type RandomFaultOptions, RandomFaults } from "./random-faults";
import {
  defaultTelegramRules,
  localServerRules,
  resolveRules,
  type TelegramRules,
  type TelegramRulesInput,
} from "./rules";
import { callMethod, createApp, listen } from "./server";
import type { NewUpdate, WebhookDelivery, WebhookInfo } from "./updates";
import { TestUser, type UserOptions } from "./users";
import { type CallbackAnswer, type CallRecord, World } from "./world";

export interface StandInOptions {
  token?: string;
  rules?: TelegramRulesInput;
  clock?: Clock;
  /** 0 (the default) picks a free port */
  port?: number;
  bot?: { firstName?: string; username?: string };
  /** the first update_id; a playground that restarts over a kept database passes a growing one */
  firstUpdateId?: number;
  /** @BotFather's inline feedback (chosen_inline_result updates); on unless told */
  inlineFeedback?: boolean;
  /**
   * Behave as a local Bot API server (`telegram-bot-api --local`) instead of
   * the cloud one: uploads and downloads of up to 2000 MB, files kept in
   * `<filesDir>/<token>/`, and getFile's file_path the absolute path of the
   * file there, which the bot reads itself. The stand-in leaves `filesDir`
   * to its owner on close.
   */
  localServer?: { filesDir: string };
}

export interface TelegramStandIn {
  /** pass as `new Bot(token, { client: { apiRoot } })` */
  readonly apiRoot: string;
  readonly token: string;
  /** every Bot API call received, in order */
  readonly calls: CallRecord[];
  /** the rules in force; change them with setRules */
  readonly rules: TelegramRules;
  /** "webhook" after setWebhook, "polling" otherwise: the bot chooses, as with Telegram */
  readonly mode: "polling" | "webhook";
  /** every POST of an update to the webhook, with its outcome */
  readonly deliveries: WebhookDelivery[];
  /** the bot's own User */
  readonly botUser: User;
  user(options?: UserOptions): TestUser;
  group(options: GroupOptions): TestGroup;
  transcript(chatId: number): string;
  fileBytes(fileId: string): Buffer;
  /** calls of one method */
  callsOf(method: string): CallRecord[];
  callbackAnswer(queryId: string): CallbackAnswer | undefined;
  /** an inline message (sent via the bot, with a keyboard): current content, keyboard and edit history */
  inlineMessage(inlineMessageId: string): BotMessage | undefined;
  /** the inline_message_id of a message sent via the bot with a keyboard, by where it sits */
  inlineMessageIdAt(chatId: number, messageId: number): string | undefined;
  /** switches @BotFather's inline feedback (chosen_inline_result updates) on or off */
  setInlineFeedback(on: boolean): void;
  /** the command menu `userId` sees in a chat (a group's admins see theirs), in `language` */
  commandMenu(
    chatId: number,
    options: { userId?: number; language?: string },
  ): ReturnType<typeof commandMenuFor>;
  webhookInfo(): WebhookInfo;
  /** a chat's state (messages with their history), for a viewer such as the playground page */
  chat(chatId: number): ChatState | undefined;
  /** a stored file's bytes, type and name */
  file(fileId: string): { bytes: Buffer; mime: string | undefined; name: string | undefined } | undefined;
  /** called after every bot call that changed a chat or answered a query */
  onChange(listener: () => void): () => void;
  /** resolves when every update queued so far was confirmed (next getUpdates offset, or a 2xx webhook answer) */
  idle(): Promise<void>;
  setRules(rules: TelegramRulesInput): void;
  /** makes the next `times` calls of `method` ("*" for any) fail with this error */
  failNext(
    method: string,
    error: { code: number; description: string; retryAfter?: number },
    times?: number,
  ): void;
  /**
   * answers the next `times` calls of `method` ("*" for any) with this HTTP status and exactly
   * this JSON body, unhandled: a Bot API server that is not Telegram's (`{ "message": … }` alone)
   */
  answerNext(method: string, answer: { status: number; body: unknown }, times?: number): void;
  /**
   * cuts connections and answers 502s at random from now on, drawn from a seed (see
   * RandomFaultOptions): `drawn` counts each kind, `stop` ends them
   */
  randomFaults(options: RandomFaultOptions): { drawn: RandomFaults["drawn"]; stop(): void };
  /**
   * Telegram goes away from the next call of `from` (at once when not given): every call
   * is cut ("refused", the bot sees no answer) or answered 502 until `end`. `started`
   * says whether it began; `end` gives the stand-in clock's time it answered again.
   */
  outage(options: { from?: string; kind: "refused" | "5xx" }): {
    started(): boolean;
    refused(): number;
    end(): number;
  };
  /** holds the next `times` calls of `method` ("*" for any) for `ms` of real time before serving them */
  delayNext(method: string, ms: number, times?: number): void;
  /** holds every call of `method` ("*" for any) from now until `release`, then serves them */
  hold(method: string): { held(): number; release(): void };
  /**
   * Delivers an update exactly as given (what no test user would send: a
   * channel post, a press with odd callback data, a message from a bot). A
   * callback query in it can be answered like any press. Undefined when the
   * bot's allowed_updates filter its type out, as Telegram would.
   */
  inject(update: NewUpdate): Update | undefined;
  /** runs a Bot API call directly, as if the bot made it */
  call(method: string, params?: Record<string, unknown>): Promise<Envelope>;
  close(): Promise<void>;
}

/** Starts a Telegram Bot API stand-in on 127.0.0.1. */
export async function startTelegramStandIn(options: StandInOptions = {}): Promise<TelegramStandIn> {
  const token = options.token ?? "7000000001:AAStandInTokenForTests_0123456789abcde";
  if (!/^\d+:[\w-]+$/.test(token)) throw new Error("a bot token looks like <bot id>:<secret>");
  const clock = options.clock ?? systemClock;
  const names = {
    firstName: options.bot?.firstName ?? "Media Studio (test)",
    username: options.bot?.username ?? "media_studio_test_bot",
  };
  // a method call the bot returns in its webhook answer runs like any other call
  const w: World = new World(
    resolveRules(options.rules, options.localServer ? localServerRules : defaultTelegramRules),
    clock,
    token,
    names,
    async (method, params) => {
      await callMethod(w, method, new Params(params));
    },
    options.firstUpdateId,
    options.localServer ? join(resolve(options.localServer.filesDir), token) : undefined,
  );
  if (options.inlineFeedback !== undefined) w.inlineFeedback = options.inlineFeedback;
  const server = await listen(createApp(w), options.port ?? 0);

  return {
    apiRoot: server.url,
    token,
    calls: w.calls,
    get rules() {
      return w.rules;
    },
    get mode() {
      return w.updates.mode;
    },
    deliveries: w.updates.deliveries,
    botUser: w.botUser,
    user: (userOptions = {}) => new TestUser(w, userOptions),
    group: (groupOptions) => createGroup(w, groupOptions),
    transcript: (chatId) => w.chats.transcript(chatId),
    fileBytes(fileId) {
      const file = w.files.get(fileId);
      if (!file) throw new Error(`no file ${fileId}`);
      return w.files.read(file);
    },
    callsOf: (method) => w.calls.filter((c) => c.method.toLowerCase() === method.toLowerCase()),
    callbackAnswer: (queryId) => w.callbackQueries.get(queryId)?.answer,
    inlineMessage: (inlineMessageId) => inlineMessageView(w, inlineMessageId),
    inlineMessageIdAt: (chatId, messageId) =>
      [...w.inlineMessages.values()].find((m) => m.chatId === chatId && m.messageId === messageId)
        ?.inlineMessageId,
    setInlineFeedback(on) {
      w.inlineFeedback = on;
    },
    commandMenu: (chatId, menuOptions) => commandMenuFor(w, chatId, menuOptions),
    webhookInfo: () => w.updates.webhookInfo(),
    chat: (chatId) => w.chats.get(chatId),
    file(fileId) {
      const file = w.files.get(fileId);
      return file ? { bytes: w.files.read(file), mime: file.mime, name: file.name } : undefined;
    },
    onChange: (listener) => w.onChange(listener),
    idle: () => w.updates.idle(),
    setRules(rules) {
      w.rules = resolveRules(rules, w.rules);
    },
    failNext(method, error, times = 1) {
      const parameters = error.retryAfter !== undefined ? { retry_after: error.retryAfter } : undefined;
      w.faults.push({
        method: method.toLowerCase(),
        error: new ApiError(error.code, error.description, parameters),
        times,
      });
    },
    answerNext(method, answer, times = 1) {
      w.faults.push({ method: method.toLowerCase(), raw: answer, times });
    },
    randomFaults(faultOptions) {
      const faults = new RandomFaults(faultOptions);
      w.randomFaults = faults;
      return {
        drawn: faults.drawn,
        stop() {
          if (w.randomFaults === faults) w.randomFaults = undefined;
        },
      };
    },
    outage({ from, kind }) {
      const outage = { kind, from: from?.toLowerCase(), started: false, refused: 0 };
      w.outage = outage;
      return {
        started: () => outage.started,
        refused: () => outage.refused,
        end() {
          if (w.outage === outage) w.outage = undefined;
          return w.clock.now();
        },
      };
    },
    delayNext(method, ms, times = 1) {
      w.faults.push({ method: method.toLowerCase(), delayMs: ms, times });
    },
    hold(method) {
      let open = () => {};
      const gate = { opened: new Promise<void>((r) => (open = r)), waiting: 0 };
      const fault = { method: method.toLowerCase(), gate, times: Number.POSITIVE_INFINITY };
      w.faults.push(fault);
      return {
        held: () => gate.waiting,
        release() {
          const at = w.faults.indexOf(fault);
          if (at >= 0) w.faults.splice(at, 1);
          open();
        },
      };
    },
    inject(update) {
      const query = update.callback_query;
      if (query) {
        w.callbackQueries.set(query.id, {
          id: query.id,
          userId: query.from.id,
          ...(query.message ? { chatId: query.message.chat.id, messageId: query.message.message_id } : {}),
          ...(query.data !== undefined ? { data: query.data } : {}),
          at: Date.now(),
        });
      }
      return w.updates.push(update);
    },
    call: async (method, params = {}) => (await callMethod(w, method, new Params(params))).envelope,
    async close() {
      w.updates.close();
      await server.close();
    },
  };
}
