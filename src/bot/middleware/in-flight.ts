import type { MiddlewareFn } from "grammy";
import type { BotContext } from "../context";

/**
 * Counts the updates being handled, so a shutdown can wait for them: a webhook
 * answered on timeout keeps working after Telegram got its 200, and closing the
 * database under it would lose the user's step.
 */
export function createInFlight() {
  let count = 0;
  const waiters = new Set<() => void>();
  const middleware: MiddlewareFn<BotContext> = async (_ctx, next) => {
    count++;
    try {
      await next();
    } finally {
      count--;
      if (count === 0) for (const wake of waiters) wake();
    }
  };
  return {
    middleware,
    get count() {
      return count;
    },
    /** resolves when no update is in flight, or after `ms` (true when idle) */
    idle(ms: number): Promise<boolean> {
      if (count === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(true);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          resolve(false);
        }, ms);
        waiters.add(wake);
      });
    },
  };
}
export type InFlight = ReturnType<typeof createInFlight>;
