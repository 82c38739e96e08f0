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

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: redactPaths, censor: "[redacted]" } }, destination);
}

/** Removes bot tokens (bare or inside Telegram file URLs) and bearer keys from free text. */
export function scrub(text: string): string {
  return text
    .replace(/bot\d{5,}:[A-Za-z0-9_-]{20,}/g, "bot[redacted]")
    .replace(/\b\d{5,}:[A-Za-z0-9_-]{30,}\b/g, "[redacted-token]")
    .replace(/Bearer\s+[^\s"']+/gi, "Bearer [redacted]");
}
