import { run } from "@grammyjs/runner";
import type { Bot } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "../platform/lib/logger";
import { messageOf } from "../platform/lib/message-of";
import { classifyTelegramError } from "../platform/telegram/telegram-error";
import { isTelegramAway } from "../platform/telegram/telegram-link";
import { allowedUpdates, servedType } from "./allowed-updates";
import { cleanUpdate } from "./clean-update";
import type { BotContext } from "./context";
import type { UpdateJournal } from "./update-journal";

export interface PollingHandle {
  /** stops fetching, then waits (up to `drainTimeoutMs`) for the updates in progress */
  stop(): Promise<void>;
  isRunning(): boolean;
}

export interface PollingOptions {
  drainTimeoutMs?: number;
  /** getUpdates long-poll timeout (seconds) */
  timeoutSeconds?: number;
  /**
   * real ms an empty getUpdates round lasts at least: a server that answers at
   * once instead of holding the long poll is asked again after this, not at
   * once (Telegram holds an empty poll for `timeoutSeconds`, so this never waits)
   */
  emptyPollMinMs?: number;
  /** real ms between tries of a failed getUpdates (the runner's retry), however long it fails */
  retryEveryMs?: number;
  /** failed fetches are logged here (the runner retries them) */
  logger?: Logger;
  /**
   * Telegram refused getUpdates for good: another instance polls with this
   * token (409) or the token is wrong (401). Retrying cannot help.
   */
  onFatal?(reason: string): void;
}

/** The runner's abort signal (grammY's type of it, not necessarily Node's own) */
type PollSignal = Parameters<Bot<BotContext>["api"]["getUpdates"]>[1];

/** Waits `ms` (none when not positive), ended early by `signal` (polling stopped). */
async function spaceOut(ms: number, signal: PollSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
  });
}

/**
 * Long polling with @grammyjs/runner: updates are handled concurrently, and
 * in order per chat and user (the journal's claim, in createBot). A webhook
 * left over from webhook mode would make getUpdates fail, so it is removed first.
 *
 * getUpdates with offset N tells Telegram that every update before N arrived,
 * and the runner asks for the next batch while the last one is still being
 * handled. So each batch is written to the journal before the fetch returns
 * it: the offset only moves past updates the journal holds, and what a crash
 * interrupts is handled again at the next start (`startUpdateRecovery`). If
 * the journal cannot be written, the fetch fails and is retried with the same offset.
 */
export async function startPolling(
  bot: Bot<BotContext>,
  journal: UpdateJournal,
  options: PollingOptions = {},
): Promise<PollingHandle> {
  const {
    drainTimeoutMs = 30_000,
    timeoutSeconds = 30,
    emptyPollMinMs = 500,
    retryEveryMs = 1_000,
  } = options;
  await bot.init();
  await bot.api.deleteWebhook();
  const journaled = {
    init: () => bot.init(),
    handleUpdate: (update: Update) => bot.handleUpdate(update),
    errorHandler: bot.errorHandler,
    api: {
      async getUpdates(
        args: { offset: number; limit: number; timeout: number },
        signal: Parameters<typeof bot.api.getUpdates>[1],
      ) {
        let updates: Update[];
        const asked = Date.now();
        try {
          updates = await bot.api.getUpdates(args, signal);
        } catch (err) {
          if (signal?.aborted) throw err;
          const failure = classifyTelegramError(err);
          const why = messageOf(err);
          if (failure?.kind === "operator") {
            options.onFatal?.(
              failure.reason === "conflict"
                ? `another instance is polling with this bot token (${why}): stop it, or run one web process`
                : `Telegram refused the bot token (${why}): check BOT_TOKEN`,
            );
          } else if (!isTelegramAway(err)) {
            // Telegram away is logged once when lost and once when back (telegram-link)
            options.logger?.warn({ err: why }, "getUpdates failed: retrying");
          }
          throw err;
        }
        if (updates.length === 0) await spaceOut(asked + emptyPollMinMs - Date.now(), signal);
        const kept = updates.map(cleanUpdate);
        try {
          // a type the bot does not serve is dropped before the journal: nothing to record
          await journal.record(kept.filter((u) => servedType(u) !== undefined));
        } catch (err) {
          // the same offset is fetched again: nothing is acknowledged that the journal does not hold
          options.logger?.warn({ err }, "updates could not be recorded: fetching them again");
          throw err;
        }
        return kept;
      },
    },
  };
  // `silent` only keeps the runner's own retry messages off stderr: each failed
  // fetch is logged above through the scrubbed logger, and a fatal one ends the process
  const runner = run(journaled, {
    runner: {
      fetch: { allowed_updates: allowedUpdates, timeout: timeoutSeconds },
      silent: true,
      // the default doubles from 100 ms without a cap: after a long outage it slept about as
      // long again; a steady pause polls within `retryEveryMs` of Telegram answering, forever
      retryInterval: retryEveryMs,
      maxRetryTime: Number.POSITIVE_INFINITY,
    },
  });

  let stopping: Promise<void> | undefined;
  // polling that ends without being stopped leaves a bot that looks alive and answers nobody
  void runner.task()?.then(
    () => {
      if (!stopping) options.onFatal?.("polling stopped on its own");
    },
    (err: unknown) => {
      if (!stopping) options.onFatal?.(`polling failed: ${messageOf(err)}`);
    },
  );
  async function drain(): Promise<void> {
    await runner.stop();
    const deadline = Date.now() + drainTimeoutMs;
    while (runner.size() > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  return {
    stop: () => {
      stopping ??= drain();
      return stopping;
    },
    isRunning: () => runner.isRunning(),
  };
}
