import { GrammyError, HttpError, type Transformer } from "grammy";
import type { Logger } from "../lib/logger";
import { messageOf } from "../lib/message-of";

/**
 * Telegram cannot be reached: no connection, a timeout (both grammY's
 * HttpError) or a server-side failure (a 5xx). The same call can succeed once
 * Telegram is back, so an update that met this is kept, not failed.
 */
export function isTelegramAway(err: unknown): boolean {
  if (err instanceof HttpError) return true;
  return err instanceof GrammyError && err.error_code >= 500;
}

export interface TelegramLinkOptions {
  /** a cheap call that succeeds when Telegram answers (getMe) */
  probe(): Promise<unknown>;
  logger: Pick<Logger, "info" | "warn">;
  /** real ms between probes while Telegram is away */
  probeEveryMs?: number;
  now?(): number;
}

/**
 * Whether Telegram is reachable, as the last calls said. A call that finds it
 * away makes it suspect, and a probe asks every `probeEveryMs` until Telegram
 * answers; whoever waits (`waitForTelegram`) goes on within about that time of
 * it answering again. Lost is logged once the probe is unanswered too (a 5xx
 * of one method while getMe answers is no outage), at warn, and back once, at
 * info, with how long Telegram was away.
 */
export function createTelegramLink(options: TelegramLinkOptions) {
  const { probe, logger, probeEveryMs = 1_000, now = Date.now } = options;
  let lostAt: number | undefined;
  let announced = false;
  let waiters: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let probing = false;
  let closed = false;

  function schedule(): void {
    if (closed || timer || lostAt === undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void check();
    }, probeEveryMs);
    timer.unref?.();
  }

  async function check(): Promise<void> {
    if (probing || lostAt === undefined) return;
    probing = true;
    try {
      await answers();
    } finally {
      probing = false;
      schedule();
    }
  }

  function lost(): void {
    if (lostAt !== undefined) return;
    lostAt = now();
    schedule();
  }

  /** The probe went unanswered too: Telegram is away, said once. */
  function confirmLost(err: unknown): void {
    lost();
    if (announced) return;
    announced = true;
    logger.warn({ reason: messageOf(err) }, "Telegram lost: updates wait for it");
  }

  function back(): void {
    if (lostAt === undefined) return;
    const awayMs = now() - lostAt;
    lostAt = undefined;
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (announced) logger.info({ awayMs }, "Telegram back");
    announced = false;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  }

  /**
   * Asks Telegram now (the probe): true when it answers, even with a refusal.
   * Tells a call refused with a 5xx while Telegram answers others (a refusal,
   * to count) from Telegram away (to wait out).
   */
  async function answers(): Promise<boolean> {
    try {
      await probe();
    } catch (err) {
      if (isTelegramAway(err)) {
        confirmLost(err);
        return false;
      }
    }
    back();
    return true;
  }

  /** Notes what a call met: an away error marks Telegram lost, an answer marks it back. */
  function observe(err: unknown | undefined): void {
    if (err === undefined) back();
    else if (isTelegramAway(err)) lost();
    else if (err instanceof GrammyError) back();
  }

  /** Resolves at once when Telegram answers, else when it is back. */
  function waitForTelegram(): Promise<void> {
    if (lostAt === undefined || closed) return Promise.resolve();
    return new Promise((resolve) => waiters.push(resolve));
  }

  /** A transformer closest to the network: every call's outcome tells the link. */
  const transformer: Transformer = async (prev, method, payload, signal) => {
    try {
      const answer = await prev(method, payload, signal);
      if (answer.ok) observe(undefined);
      else if (answer.error_code >= 500) lost();
      else back();
      return answer;
    } catch (err) {
      if (err instanceof HttpError && !signal?.aborted) lost();
      throw err;
    }
  };

  return {
    isAway: () => lostAt !== undefined,
    observe,
    answers,
    waitForTelegram,
    transformer,
    /** stops probing; whoever waits goes on */
    close(): void {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      const ready = waiters;
      waiters = [];
      for (const resolve of ready) resolve();
    },
  };
}

export type TelegramLink = ReturnType<typeof createTelegramLink>;
