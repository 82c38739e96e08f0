import type { IncomingMessage } from "node:http";
import { Transform } from "node:stream";
import type { Logger } from "../lib/logger";
import {
  type LinkControl,
  type LinkFailure,
  type LinkGuardOptions,
  LinkStop,
  readGuardedLink,
} from "./guarded-fetch";
import type { LinkDownloadCaps } from "./link-download";

/**
 * How long the file behind a dubbing link is, read from its first bytes:
 * enough to price it before the user confirms. Never throws; the length is
 * "unknown" when it cannot be read within the caps.
 */
export type LinkDuration = { seconds: number } | { unknown: LinkUnknownReason };

export type LinkUnknownReason = LinkFailure;

/** At most this much of a file is read to find its length. */
export const linkProbeMaxBytes = 2 * 1024 * 1024;
/** The whole probe, redirects included, is given up after this long (real ms). */
export const linkProbeTimeoutMs = 4_000;

export interface LinkProbeOptions extends LinkGuardOptions {
  maxBytes?: number;
  timeoutMs?: number;
  /** the caps of the worker's download of the same link before it is sent (tests: a small size cap) */
  download?: LinkDownloadCaps;
}

export type LinkDurationProbe = (url: string, logger?: Pick<Logger, "warn">) => Promise<LinkDuration>;

/** A probe with fixed options: what the bot is given. */
export function linkDurationProbe(options: LinkProbeOptions = {}): LinkDurationProbe {
  return (url, logger) => probeLinkDuration(url, { ...options, ...(logger ? { logger } : {}) });
}

/** Reads the length from the body, stopping as soon as it is known or a cap is reached. */
export async function durationOf(
  response: IncomingMessage,
  maxBytes: number,
  control: LinkControl,
): Promise<number | undefined> {
  // loaded at the first dubbing link, not at start-up (the response waits, paused, meanwhile)
  const { parseStream } = await import("music-metadata");
  let read = 0;
  let seconds: number | undefined;
  const capped = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      if (read > maxBytes) {
        control.abort("size-cap");
        return done();
      }
      done(null, chunk);
    },
  });
  response.on("error", (err) => capped.destroy(err));
  // what matters reaches `parsing`; once it is done, the connection torn down to stop the
  // download errors here too (an MP3's length is known from its first frames)
  capped.on("error", () => undefined);
  response.pipe(capped);
  const declared = Number(response.headers["content-length"]);
  const mimeType = response.headers["content-type"]?.split(";")[0]?.trim();
  const parsing = parseStream(
    capped,
    {
      ...(mimeType ? { mimeType } : {}),
      ...(Number.isSafeInteger(declared) && declared > 0 ? { size: declared } : {}),
    },
    {
      duration: false,
      skipCovers: true,
      skipPostHeaders: true,
      observer: (update) => {
        const d = update.metadata.format.duration;
        if (update.tag.id === "duration" && d !== undefined && Number.isFinite(d) && d > 0) {
          seconds = d;
          // enough read: the rest of the file is not fetched
          control.abort("unreadable");
        }
      },
    },
  );
  parsing.catch(() => undefined);
  try {
    const meta = await Promise.race([parsing, control.stopped]);
    return seconds ?? meta.format.duration;
  } catch (err) {
    if (seconds !== undefined) return seconds;
    throw err instanceof LinkStop ? err : new LinkStop("unreadable");
  }
}

/**
 * Reads how long the audio or video behind an https link is, under the guards
 * of `readGuardedLink`, reading at most `maxBytes` within `timeoutMs` overall.
 */
export async function probeLinkDuration(link: string, options: LinkProbeOptions = {}): Promise<LinkDuration> {
  const maxBytes = options.maxBytes ?? linkProbeMaxBytes;
  const result = await readGuardedLink(
    link,
    {
      ...options,
      timeoutMs: options.timeoutMs ?? linkProbeTimeoutMs,
      accept: "audio/*, video/*;q=0.9, */*;q=0.5",
      what: "dubbing link length",
    },
    (response, control) => durationOf(response, maxBytes, control),
  );
  if (!result.ok) return { unknown: result.reason };
  const seconds = result.value;
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return { unknown: "unreadable" };
  return { seconds: Math.round(seconds * 1000) / 1000 };
}
