import type { Logger } from "./logger";

/**
 * An error handler for a connection that retries on its own (ioredis, BullMQ):
 * one warning when errors start, then at most one a minute with how many
 * followed, instead of a line per failed reconnect. Also keeps Node from
 * treating an unhandled "error" event as fatal.
 */
export function outageLog(logger: Logger, what: string, windowMs = 60_000): (err: Error) => void {
  let lastAt = 0;
  let since = 0;
  return (err) => {
    const now = Date.now();
    if (now - lastAt < windowMs) {
      since++;
      return;
    }
    logger.warn(
      { err: err.message, ...(since > 0 ? { repeated: since } : {}) },
      `${what}: connection failing, retrying`,
    );
    lastAt = now;
    since = 0;
  };
}
