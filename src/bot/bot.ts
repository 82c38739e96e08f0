import { Bot, type Transformer } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import { i18n } from "../platform/i18n/i18n";
import { userRateKeyPrefix } from "../platform/lib/rate-window";
import {
  boundedAutoRetry,
  cosmeticNeverFails,
  defaultTransientRetry,
  loggedPause,
  markBlockedUsers,
  readableRefusals,
  retryTransient,
  type TransientRetry,
} from "../platform/telegram/api-transformers";
import { createShownMessages } from "../platform/telegram/shown-messages";
import { createTelegramLink, isTelegramAway, type TelegramLink } from "../platform/telegram/telegram-link";
import { refreshChosenMenus, retryAdminMenus } from "./commands";
import type { BotContext, BotDeps } from "./context";
import { conversationsPlugin } from "./conversations/plugin";
import type { FeatureMount, FeaturePhase } from "./feature";
import { fallbackFeature } from "./features/fallback";
import { type HelpSection, helpFeature } from "./features/help";
import { languageFeature } from "./features/language";
import { membershipFeature } from "./features/membership";
import { chatMenuButtons } from "./menu-button";
import { audienceWords } from "./middleware/audience-words";
import { bannedUsersStop } from "./middleware/banned";
import { handleBotError } from "./middleware/error-boundary";
import type { InFlight } from "./middleware/in-flight";
import { peopleOnly } from "./middleware/people-only";
import { defaultRateLimit, perGroup, type RateLimitOptions, rateLimit } from "./middleware/rate-limit";
import { registerUser } from "./middleware/register-user";
import { servedUpdatesOnly } from "./middleware/served-updates";
import { startContext } from "./middleware/start-context";
import { timeUpdates } from "./middleware/update-timing";
import { createUpdateJournal, journalUpdates, type UpdateJournal } from "./update-journal";

export interface CreateBotOptions {
  /** Bot API root, e.g. https://api.telegram.org or a stand-in */
  apiRoot: string;
  /** skips getMe at start when known */
  botInfo?: UserFromGetMe;
  /** every feature's composers, in one ordered list: each runs at its phase, in the list's order within it */
  features?: readonly FeatureMount[];
  /** counts updates in handling, for a shutdown that waits for them */
  inFlight?: InFlight;
  /** told how long each update took to handle, by type (metrics) */
  observeUpdate?(type: string, seconds: number): void;
  /** API transformers that must see Telegram's raw answers (metrics) */
  apiTransformers?: Transformer[];
  /** how a call that failed in passing (a lost connection, a 5xx) is tried again; `defaultTransientRetry` by default */
  telegramRetry?: TransientRetry;
  /** the process's Telegram link (one "lost" and one "back" line per process); the bot's own when unset */
  telegramLink?: TelegramLink;
  /** per-user rate limit; the Redis key prefix defaults to `<config.redis.prefix>:ratelimit:` */
  rateLimit?: Partial<RateLimitOptions>;
  /** per-group rate limit (all members of one group together), beside the per-user one; config's by default */
  groupRateLimit?: Partial<RateLimitOptions>;
  /** where updates are recorded before handling; one over `deps.db` by default */
  journal?: UpdateJournal;
  /**
   * the features' commands in the menu, as given to `syncCommands`: /language
   * sets a user's menu from them (no default: a menu without them would hide
   * the features from whoever chose a language)
   */
  menuCommands: readonly string[];
  /** the features' paragraphs of /help (limits and prices, inline mode), after the menu's commands */
  helpSections?: readonly HelpSection[];
}

/**
 * The bot with its middleware in order: the update journal's claim, in turn
 * per chat and user across processes (a redelivered or finished update is dropped), error boundary, i18n, rate limits
 * (per user, per group), what a group may send as itself, people only,
 * banned users stopped, conversations, user registration, the menus to set
 * again (an admin's refused at start-up, a chosen language's after a deploy), the
 * always-available handlers, the given features, and a fallback. Errors end in
 * `handleBotError`. Starting it (polling or webhook) is the caller's choice.
 */
export function createBot(token: string, deps: BotDeps, options: CreateBotOptions): Bot<BotContext> {
  const bot = new Bot<BotContext>(token, {
    client: { apiRoot: options.apiRoot },
    ...(options.botInfo ? { botInfo: options.botInfo } : {}),
  });

  // closest to the network first, so they see every raw answer (auto-retry hides 429s)
  const link =
    options.telegramLink ?? createTelegramLink({ probe: () => bot.api.getMe(), logger: deps.logger });
  bot.api.config.use(link.transformer);
  for (const t of options.apiTransformers ?? []) bot.api.config.use(t);
  const telegramRetry = options.telegramRetry ?? defaultTransientRetry;
  bot.api.config.use(readableRefusals());
  bot.api.config.use(retryTransient(telegramRetry, loggedPause(deps.logger)));
  bot.api.config.use(boundedAutoRetry());
  bot.api.config.use(markBlockedUsers(deps.users, deps.logger));
  const shown = createShownMessages();
  bot.api.config.use(shown.transformer);
  bot.api.config.use(cosmeticNeverFails(deps.logger));

  // Errors before the boundary (e.g. the database is down during the claim) reach
  // bot.catch under polling; under a webhook they fail the call, and Telegram retries.
  bot.catch((err) => handleBotError(err, deps.logger));

  if (options.inFlight) bot.use(options.inFlight.middleware);
  if (options.observeUpdate) bot.use(timeUpdates(options.observeUpdate));
  bot.use(startContext(deps.logger));
  bot.use((ctx, next) => {
    ctx.shown = shown;
    ctx.telegramRetry = telegramRetry;
    if (ctx.callbackQuery) shown.notePressed(ctx.callbackQuery);
    return next();
  });
  // The journal's claim keeps each chat's and user's updates in order and one at
  // a time across every process (grammY's per-process sequentialize cannot: a
  // second web process would run the same chat concurrently). A redelivered
  // copy of a finished update is dropped here.
  // first: an update type the bot does not serve costs nothing, not even a journal row
  bot.use(servedUpdatesOnly());
  bot.use(
    journalUpdates(options.journal ?? createUpdateJournal(deps.db), {
      link,
      again: (update) => bot.handleUpdate(update),
    }),
  );

  // Past this point every error is handled here: logged, the user told, the update done;
  // all but Telegram away, which the journal keeps until Telegram answers.
  const guarded = bot.errorBoundary((err) => {
    if (isTelegramAway(err.error)) throw err.error;
    return handleBotError(err, deps.logger);
  });
  guarded.use(i18n);
  // what a group sees: every ctx.t of a group, a topic or inline mode says nothing of one person's account
  guarded.use(audienceWords);
  const limits = { redis: deps.redis, users: deps.users, adminIds: deps.config.adminIds };
  guarded.use(
    rateLimit(limits, {
      ...defaultRateLimit,
      keyPrefix: userRateKeyPrefix(deps.config.redis.prefix),
      ...options.rateLimit,
    }),
  );
  guarded.use(
    rateLimit(limits, {
      ...defaultRateLimit,
      ...deps.config.groupRateLimit,
      keyPrefix: userRateKeyPrefix(deps.config.redis.prefix),
      notice: "group-rate-limited",
      ...options.groupRateLimit,
      key: perGroup,
    }),
  );
  const mounts = options.features ?? [];
  const at = (phase: FeaturePhase) => mounts.filter((m) => m.phase === phase).map((m) => m.composer);
  for (const feature of at("group-identity")) guarded.use(feature);
  // before anything keyed by the sender: no conversation or account for a non-person
  guarded.use(peopleOnly());
  // before the conversations: a banned user inside one is stopped too
  guarded.use(bannedUsersStop(deps.config.adminIds));
  for (const feature of at("checkout")) guarded.use(feature);
  // Before the always-available handlers: /cancel leaves conversations through it.
  guarded.use(conversationsPlugin(deps.db));
  guarded.use(registerUser(deps.users));
  guarded.use(retryAdminMenus());
  const menus = {
    extra: options.menuCommands,
    adminIds: deps.config.adminIds,
    miniAppUrl: deps.config.miniAppUrl,
  };
  guarded.use(refreshChosenMenus(menus));
  guarded.use(chatMenuButtons(deps.config.miniAppUrl));

  guarded.use(
    helpFeature(menus, options.helpSections ?? []),
    languageFeature(deps, menus),
    membershipFeature(deps),
  );
  for (const feature of at("first")) guarded.use(feature);
  for (const feature of at("feature")) guarded.use(feature);
  for (const feature of at("last")) guarded.use(feature);
  guarded.use(fallbackFeature);

  return bot;
}
