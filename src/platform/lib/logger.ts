import pino, { type Logger } from "pino";

export type { Logger };

/** Paths redacted from every log line; secret-bearing strings are also scrubbed by `scrub`. */
const redactPaths = [
  "token",
  "apiKey",
  "authorization",
  "headers.authorization",
  "*.token",
  "*.apiKey",
  "*.authorization",
  "config.telegram.token",
  "config.media.apiKey",
  "config.signingSecret",
];

/**
 * Every line is scrubbed as it is written, whatever field carries the secret:
 * an error from a failed Telegram call quotes its URL, which holds the bot token,
 * deep inside `err`. Known secret values (the configured token, keys) are
 * replaced wherever they appear too.
 */
export function createLogger(
  level: string,
  destination?: pino.DestinationStream,
  secrets: ReadonlyArray<string | undefined> = [],
): Logger {
  const known = secrets.filter((s): s is string => typeof s === "string" && s.length >= 8);
  return pino(
    {
      level,
      redact: { paths: redactPaths, censor: "[redacted]" },
      hooks: {
        streamWrite: (line) => {
          let out = scrub(line);
          for (const secret of known) out = out.split(secret).join("[redacted]");
          return out;
        },
      },
    },
    // synchronous: pino flushes an asynchronous stdout at exit in a loop that never
    // ends once the reader of the pipe is gone (EPIPE), so process.exit would hang
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/** Removes bot tokens (bare or inside Telegram file URLs) and bearer keys from free text. */
export function scrub(text: string): string {
  return text
    .replace(/bot\d{5,}:[A-Za-z0-9_-]{20,}/g, "bot[redacted]")
    .replace(/\b\d{5,}:[A-Za-z0-9_-]{30,}\b/g, "[redacted-token]")
    .replace(/Bearer\s+[^\s"']+/gi, "Bearer [redacted]");
}
