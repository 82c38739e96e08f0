import type { Logger } from "../../lib/logger";
import type { GuardedResult, LinkFailure } from "../../media/guarded-fetch";
import { type LinkDownloaded, linkDownloadMaxBytes } from "../../media/link-download";
import type { Prices } from "../../pricing/prices";
import type { MediaStore } from "../../storage/media-store";
import type { GenerationParams } from "../params";
import { quote } from "../quote";
import type { Generation } from "../types";

/**
 * A dubbing source given as a link is pinned before it is sent: downloaded
 * once under the probe's guards, kept in our storage, measured whole, and
 * handed to the service as our own signed URL. The hold was set from the
 * length the bot read; a file that has grown since (a server answering the
 * probe and the service differently) would otherwise be dubbed, and billed
 * to us, beyond what the user pays.
 */
export type PinOutcome =
  /** nothing to pin: the inputs go as they are */
  | { kind: "as-is" }
  | { kind: "pinned"; url: string; seconds: number | undefined }
  /** not to be sent: the generation ends with this error, its hold released */
  | { kind: "refused"; error: PinRefusal };

export type PinRefusal =
  | { reason: "source_longer"; message: string; seconds: number; needed: number }
  | { reason: "source_too_large"; message: string; maxBytes: number }
  | { reason: "source_unreachable"; message: string; failure: LinkFailure }
  | { reason: "source_unreadable"; message: string };

export interface PinDeps {
  store: Pick<MediaStore, "findInput" | "keepInput">;
  prices: Prices;
  /** streams the link's file into `destination` under the guards (`downloadLink`) */
  download(link: string, destination: string): Promise<GuardedResult<LinkDownloaded>>;
  /** the download's size cap, as said to the user */
  maxBytes?: number;
  /** our signed URL of the kept input of a generation */
  inputUrl(generationId: string): string;
  logger: Pick<Logger, "info" | "warn">;
}

class NotDownloaded extends Error {
  constructor(readonly failure: LinkFailure) {
    super(failure);
  }
}

/** The length of the whole file, or undefined when it cannot be read as audio or video. */
async function measure(path: string): Promise<number | undefined> {
  try {
    const { parseFile } = await import("music-metadata");
    const meta = await parseFile(path, { duration: true, skipCovers: true });
    const d = meta.format.duration;
    return d !== undefined && Number.isFinite(d) && d > 0 ? d : undefined;
  } catch {
    return undefined;
  }
}

function refusalOf(failure: LinkFailure, maxBytes: number): PinRefusal {
  if (failure === "size-cap")
    return { reason: "source_too_large", message: `larger than ${maxBytes} bytes`, maxBytes };
  if (failure === "unreadable") return { reason: "source_unreadable", message: "not readable" };
  return { reason: "source_unreachable", message: `download failed: ${failure}`, failure };
}

export function sourcePinner(deps: PinDeps) {
  const maxBytes = deps.maxBytes ?? linkDownloadMaxBytes;
  return async function pin(g: Generation, p: GenerationParams): Promise<PinOutcome> {
    if (p.operation !== "dub" || p.source.kind !== "url") return { kind: "as-is" };
    const link = p.source.url;
    // a second attempt (a crash, a failed send) takes the copy already kept
    let file = await deps.store.findInput(g.id);
    if (!file) {
      try {
        file = await deps.store.keepInput(g.id, async (destination) => {
          const got = await deps.download(link, destination);
          if (!got.ok) throw new NotDownloaded(got.reason);
          return { contentType: got.value.contentType, url: link };
        });
      } catch (err) {
        if (!(err instanceof NotDownloaded)) throw err;
        deps.logger.info({ generationId: g.id, failure: err.failure }, "dubbing source not downloaded");
        return { kind: "refused", error: refusalOf(err.failure, maxBytes) };
      }
    }
    const seconds = await measure(file.absolutePath);
    // unreadable here, the service measures it: only the price of the longest file covers that
    const needed = quote(deps.prices, { operation: "dub", durationSeconds: seconds });
    if (!needed.ok || needed.credits > g.price) {
      deps.logger.info(
        { generationId: g.id, seconds, held: g.price, needed: needed.ok ? needed.credits : null },
        "dubbing source longer than its hold: not sent",
      );
      return seconds === undefined
        ? { kind: "refused", error: { reason: "source_unreadable", message: "length not readable" } }
        : {
            kind: "refused",
            error: {
              reason: "source_longer",
              message: `${seconds} s, held for less`,
              seconds,
              needed: needed.ok ? needed.credits : 0,
            },
          };
    }
    return { kind: "pinned", url: deps.inputUrl(g.id), seconds };
  };
}

/** What the status message says of a generation ended by a refused pin: a locale key and its values. */
export function pinRefusalText(
  error: Record<string, unknown> | null,
  price: number,
): { key: string; vars: Record<string, string | number> } | undefined {
  switch (error?.reason) {
    case "source_longer": {
      const total = Math.round(Number(error.seconds) || 0);
      return {
        key: "dub-pin-longer",
        vars: { minutes: Math.floor(total / 60), seconds: total % 60, price },
      };
    }
    case "source_too_large":
      return {
        key: "dub-pin-too-large",
        vars: { limit: Math.round((Number(error.maxBytes) || linkDownloadMaxBytes) / 100_000) / 10, price },
      };
    case "source_unreachable":
      return { key: "dub-pin-unreachable", vars: { price } };
    case "source_unreadable":
      return { key: "dub-pin-unreadable", vars: { price } };
    default:
      return undefined;
  }
}
