import { Writable } from "node:stream";
import { createLogger, type Logger } from "../../src/platform/lib/logger";

export type LogLine = Record<string, unknown> & { level: number; msg: string };

/** A real (scrubbing) logger whose lines land, parsed, in `lines`. */
export function captureLogs(level = "info"): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = createLogger(
    level,
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as LogLine);
        done();
      },
    }),
  );
  return { logger, lines };
}
