import { run } from "@grammyjs/runner";
import type { Bot } from "grammy";
import type { BotContext } from "./context";

/** Every update type the bot handles; Telegram sends only these. */
export const allowedUpdates = [
  "message",
  "edited_message",
  "callback_query",
  "inline_query",
  "chosen_inline_result",
  "pre_checkout_query",
  "my_chat_member",
] as const;

export interface PollingHandle {
  /** stops fetching, then waits (up to `drainTimeoutMs`) for the updates in progress */
  stop(): Promise<void>;
  isRunning(): boolean;
}

export interface PollingOptions {
  drainTimeoutMs?: number;
  /** getUpdates long-poll timeout (seconds) */
  timeoutSeconds?: number;
}

/**
 * Long polling with @grammyjs/runner: updates are handled concurrently, and
 * in order per chat and user (createBot installs `sequentialize`). A webhook
 * left over from webhook mode would make getUpdates fail, so it is removed first.
 * Updates fetched but not finished at a stop come again on the next start;
 * the update_id dedupe drops those already handled.
 */
export async function startPolling(
  bot: Bot<BotContext>,
  options: PollingOptions = {},
): Promise<PollingHandle> {
  const { drainTimeoutMs = 30_000, timeoutSeconds = 30 } = options;
  await bot.init();
  await bot.api.deleteWebhook();
  const runner = run(bot, {
    runner: { fetch: { allowed_updates: allowedUpdates, timeout: timeoutSeconds }, silent: true },
  });

  let stopping: Promise<void> | undefined;
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
