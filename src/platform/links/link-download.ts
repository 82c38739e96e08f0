import { createWriteStream } from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { releasingChunks } from "../lib/release-chunks";
import { limits } from "../media-service/catalog";
import { type GuardedResult, type LinkGuardOptions, LinkStop, readGuardedLink } from "./guarded-fetch";

/** The service's own limit on a dubbing source: a larger file is never downloaded whole. */
export const linkDownloadMaxBytes = limits.dubbingMaxBytes;
/** A whole download of a dubbing source, redirects included, is given up after this long (real ms). */
export const linkDownloadTimeoutMs = 2 * 60_000;

export interface LinkDownloadCaps {
  maxBytes?: number;
  timeoutMs?: number;
}

export interface LinkDownloaded {
  bytes: number;
  /** the type the server declared, without parameters */
  contentType: string | undefined;
}

/** The download's options from the probe's: the same guards, the download's own caps. */
export function linkDownloadOptions(
  probe: (LinkGuardOptions & { download?: LinkDownloadCaps | undefined }) | undefined,
): LinkGuardOptions & LinkDownloadCaps {
  if (!probe) return {};
  const { allowAddress, ca, maxRedirects, logger, download } = probe;
  return {
    ...(allowAddress ? { allowAddress } : {}),
    ...(ca ? { ca } : {}),
    ...(maxRedirects !== undefined ? { maxRedirects } : {}),
    ...(logger ? { logger } : {}),
    ...download,
  };
}

/**
 * Streams the file behind a user's link into `destination` under the same
 * guards as the length probe (`readGuardedLink`), at most `maxBytes` (refused
 * at once when the declared length is larger) within `timeoutMs`.
 */
export function downloadLink(
  link: string,
  destination: string,
  options: LinkGuardOptions & LinkDownloadCaps = {},
): Promise<GuardedResult<LinkDownloaded>> {
  const maxBytes = options.maxBytes ?? linkDownloadMaxBytes;
  return readGuardedLink(
    link,
    {
      ...options,
      timeoutMs: options.timeoutMs ?? linkDownloadTimeoutMs,
      accept: "audio/*, video/*;q=0.9, */*;q=0.5",
      what: "dubbing source download",
    },
    async (response, control) => {
      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) throw new LinkStop("size-cap");
      let bytes = 0;
      const capped = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          if (bytes > maxBytes) return done(new LinkStop("size-cap"));
          done(null, chunk);
        },
      });
      const writing = pipeline(response, capped, releasingChunks(), createWriteStream(destination));
      writing.catch(() => undefined);
      await Promise.race([writing, control.stopped]);
      return { bytes, contentType: response.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() };
    },
  );
}
