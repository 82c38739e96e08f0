import type { Bot } from "grammy";
import { allowedUpdates } from "../bot/allowed-updates";
import { syncCommands } from "../bot/commands";
import type { BotContext } from "../bot/context";
import { setDefaultMenuButton } from "../bot/menu-button";
import type { PollingHandle } from "../bot/polling";
import { startUpdateRecovery, type UpdateJournal } from "../bot/update-journal";
import { languageFromCode } from "../platform/i18n/language";
import { messageOf } from "../platform/lib/message-of";
import { classifyTelegramError } from "../platform/telegram/telegram-error";
import { menuCommands } from "./features";
import { every } from "./periodic";
import type { Readiness } from "./readiness";
import type { Services } from "./services";
import type { RuntimeTiming } from "./settings";
import { phase, type StopPhases } from "./stop-phases";

export interface IntakeOptions {
  timing: RuntimeTiming;
  readiness: Readiness;
  /** Telegram refused us for good (bad token, another instance polling): an operator must act */
  onFatal(reason: string): void;
}

/**
 * getMe until Telegram answers, with a log line per failed try and a growing
 * pause; a refusal for good (wrong token) is fatal at once.
 */
async function initBot(bot: Bot<BotContext>, s: Services, options: IntakeOptions, stopped: { now: boolean }) {
  for (let attempt = 1; !stopped.now; attempt++) {
    try {
      // grammY's own init retries getMe forever, silently: ask once per try here
      if (!bot.isInited()) bot.botInfo = await bot.api.getMe();
      await bot.init();
      return true;
    } catch (err) {
      const failure = classifyTelegramError(err);
      const why = messageOf(err);
      if (failure?.kind === "operator") {
        options.onFatal(`Telegram refused the bot token (${why}): check BOT_TOKEN`);
        return false;
      }
      const waitMs = Math.min(30_000, 500 * 2 ** Math.min(attempt, 6));
      s.logger.warn({ attempt, retryInMs: waitMs, err: why }, "Telegram unreachable: retrying getMe");
      options.readiness.set("telegram", false, `getMe failed ${attempt}×: ${why}`);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
  return false;
}

/**
 * The web role's Telegram intake: getMe until Telegram answers, the command
 * menus and the menu button, the journal's recovery, then polling or the
 * webhook's registration.
 */
export async function startIntake(
  bot: Bot<BotContext>,
  journal: UpdateJournal,
  s: Services,
  options: IntakeOptions,
  stops: StopPhases,
  stopped: { now: boolean },
) {
  const { config, logger, users } = s;
  const { timing, readiness } = options;
  if (!(await initBot(bot, s, options, stopped))) return;
  await syncCommands(bot, menuCommands, {
    adminIds: config.adminIds,
    // an admin the bot has seen gets the menu in their language: a deploy keeps their /language
    languageOf: async (adminId) => {
      const row = await users.get(adminId);
      return row ? languageFromCode(row.language) : undefined;
    },
    logger,
  }).catch((err: unknown) => logger.warn({ err }, "could not set the command menus"));
  await setDefaultMenuButton(bot.api, config.miniAppUrl).catch((err: unknown) =>
    logger.warn({ err }, "could not set the menu button"),
  );
  // what a crash left unfinished, then whatever a lost lease leaves behind
  const recovery = startUpdateRecovery(bot, journal, logger);
  stops.onStop(phase.updates, () => recovery.stop());
  every("update journal cleanup", s.clock.toReal(timing.journalCleanupEveryMs), () => journal.cleanup(), {
    logger,
    stops,
    rounds: s.rounds,
    atStart: true,
  });
  if (config.telegram.mode === "polling") {
    const { startPolling } = await import("../bot/polling");
    const polling: PollingHandle = await startPolling(bot, journal, {
      timeoutSeconds: timing.pollingTimeoutSeconds,
      drainTimeoutMs: timing.drainMs,
      logger,
      onFatal: options.onFatal,
    });
    stops.onStop(phase.updates, () => polling.stop());
    readiness.watch("telegram", () =>
      polling.isRunning() ? { ok: true, detail: "polling" } : { ok: false, detail: "polling stopped" },
    );
    return;
  }
  await bot.api.setWebhook(`${config.publicUrl}/telegram`, {
    secret_token: config.telegram.webhookSecret!,
    allowed_updates: allowedUpdates,
  });
  readiness.set("telegram", true, "webhook registered");
}
