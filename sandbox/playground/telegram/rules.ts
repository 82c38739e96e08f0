/**
 * Telegram's rules as configurable assumptions. Defaults follow
 * /work/shared/reference/telegram-facts.md; where Telegram publishes no number
 * (flood control, callback query age, webhook retries) the default is our guess.
 *
 * Times: flood windows and retry_after follow the stand-in's clock (the bot
 * paces itself by that clock); the limits on how fast the bot answers (query
 * age, pre-checkout, webhook timeout and retries) are real milliseconds,
 * because the bot's latency is real even under a scaled clock.
 */
export interface FloodRules {
  /** token bucket per chat: `perSecond` refill, `burst` capacity; false switches it off (clock time) */
  perChat: { perSecond: number; burst: number } | false;
  /** messages (and edits) per minute in one group or supergroup */
  perGroupPerMinute: number | false;
  /**
   * messages per second across all chats: a token bucket refilled at this
   * rate holding one second of them, so a sender at the rate never meets a
   * 429 and one above it soon does
   */
  globalPerSecond: number | false;
}

export interface WebhookRules {
  /** real Telegram accepts only https on ports 443, 80, 88, 8443; tests serve plain http */
  requireHttps: boolean;
  /** how long the stand-in waits for the bot's answer before it counts as a failure (real ms) */
  timeoutMs: number;
  /** pause before redelivering after a failure (real ms), doubled per failure up to maxRetryDelayMs */
  retryDelayMs: number;
  maxRetryDelayMs: number;
}

export interface TelegramRules {
  maxTextLength: number;
  maxCaptionLength: number;
  maxCallbackDataBytes: number;
  maxUploadBytes: number;
  maxPhotoUploadBytes: number;
  maxDownloadBytes: number;
  maxPhotoUrlBytes: number;
  maxUrlBytes: number;
  mediaGroupMin: number;
  mediaGroupMax: number;
  /** answerCallbackQuery / answerInlineQuery later than this → "query is too old" (real ms) */
  queryMaxAgeMs: number;
  /** answerPreCheckoutQuery later than this fails the payment (real ms) */
  preCheckoutTimeoutMs: number;
  maxInlineResults: number;
  maxCommands: number;
  /** real Telegram opens only https Web Apps (its test environment also plain http, as the playground serves) */
  webAppRequireHttps: boolean;
  /** the most Stars one invoice may ask */
  maxStarsPerInvoice: number;
  /** privacy mode: in groups the bot only sees commands, replies to itself and service messages */
  groupPrivacy: boolean;
  /** getUpdates waits its `timeout` for an update, as Telegram does; a server that is not Telegram's may answer at once */
  holdLongPolls: boolean;
  flood: FloodRules | false;
  webhook: WebhookRules;
}

export type TelegramRulesInput = Partial<Omit<TelegramRules, "flood" | "webhook">> & {
  flood?: Partial<FloodRules> | false;
  webhook?: Partial<WebhookRules>;
};

const MB = 1024 * 1024;

const defaultFloodRules: FloodRules = {
  perChat: { perSecond: 1, burst: 3 },
  perGroupPerMinute: 20,
  globalPerSecond: 30,
};

export const defaultTelegramRules: TelegramRules = {
  maxTextLength: 4096,
  maxCaptionLength: 1024,
  maxCallbackDataBytes: 64,
  maxUploadBytes: 50 * MB,
  maxPhotoUploadBytes: 10 * MB,
  maxDownloadBytes: 20 * MB,
  maxPhotoUrlBytes: 5 * MB,
  maxUrlBytes: 20 * MB,
  mediaGroupMin: 2,
  mediaGroupMax: 10,
  queryMaxAgeMs: 15_000,
  preCheckoutTimeoutMs: 10_000,
  maxInlineResults: 50,
  maxCommands: 100,
  webAppRequireHttps: false,
  maxStarsPerInvoice: 10_000,
  groupPrivacy: true,
  holdLongPolls: true,
  flood: defaultFloodRules,
  webhook: { requireHttps: false, timeoutMs: 10_000, retryDelayMs: 500, maxRetryDelayMs: 10_000 },
};

/**
 * A local Bot API server (`telegram-bot-api --local`): uploads and getFile
 * downloads of up to 2000 MB. Photos stay at 10 MB and sending by URL at
 * Telegram's limits: the server passes those on to Telegram.
 */
export const localServerRules: TelegramRules = {
  ...defaultTelegramRules,
  maxUploadBytes: 2000 * MB,
  maxDownloadBytes: 2000 * MB,
};

export function resolveRules(input: TelegramRulesInput = {}, base: TelegramRules = defaultTelegramRules) {
  const { flood, webhook, ...rest } = input;
  const baseFlood = base.flood === false ? defaultFloodRules : base.flood;
  const rules: TelegramRules = {
    ...base,
    ...rest,
    flood: flood === false ? false : flood === undefined ? base.flood : { ...baseFlood, ...flood },
    webhook: { ...base.webhook, ...webhook },
  };
  return rules;
}
