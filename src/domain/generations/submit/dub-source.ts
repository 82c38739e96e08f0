import { FfmpegError } from "../../../platform/ffmpeg/run";
import type { Silence } from "../../../platform/ffmpeg/silences";
import { faultPoint } from "../../../platform/lib/fault-point";
import type { Logger } from "../../../platform/lib/logger";
import type { GuardedResult, LinkFailure } from "../../../platform/links/guarded-fetch";
import type { LinkDownloaded } from "../../../platform/links/link-download";
import type { MediaStore } from "../../../platform/storage/stored-file";
import { TelegramFileRefused } from "../../../platform/telegram/telegram-files";
import type { Prices } from "../../pricing/prices";
import { cutPoints, dubBudgets, type PartPlanned, planParts } from "../dub-parts";
import type { GenerationParams, InputRef } from "../params";
import { budgetsPrice } from "../quote";
import type { Generation } from "../types";

/**
 * A dubbing source is kept before anything is sent: downloaded once (a link
 * under the probe's guards, a Telegram file through getFile), kept in our
 * storage and measured whole. The hold was set from the length the bot read
 * before Confirm; a file that turns out longer is not sent. A file within
 * the service's 5 minutes goes whole, as our own signed URL; a longer one is
 * cut at pauses into parts that are dubbed one by one (dub-parts.ts).
 */
export type SourceOutcome =
  /** nothing to keep: the inputs go as they are (not a dub) */
  | { kind: "as-is" }
  | { kind: "whole"; url: string; seconds: number }
  | { kind: "parts"; plan: PartPlanned[]; seconds: number }
  /** not to be sent: the generation ends with this error, its hold released */
  | { kind: "refused"; error: SourceRefusal };

export type SourceRefusal =
  | { reason: "source_longer"; message: string; seconds: number; needed: number }
  | { reason: "source_too_long"; message: string; seconds: number; maxMinutes: number }
  | { reason: "source_too_large"; message: string; maxBytes: number }
  | { reason: "source_unreachable"; message: string; failure: LinkFailure | "telegram" }
  | { reason: "source_unreadable"; message: string }
  /** longer than the service's 5 minutes, and this installation has no ffmpeg to cut it */
  | { reason: "source_uncut"; message: string; seconds: number };

export interface DubSourceDeps {
  store: Pick<MediaStore, "findInput" | "keepInput" | "findParts" | "keepParts" | "withLocalFiles">;
  prices: Prices;
  /** streams the link's file into `destination` under the guards (`downloadLink`) */
  download(link: string, destination: string): Promise<GuardedResult<LinkDownloaded>>;
  /** streams a user's Telegram file into `destination` (`saveTelegramFile`) */
  telegramFile(fileId: string, destination: string): Promise<void>;
  /** the largest source, as said to the user */
  maxBytes: number;
  /** DUB_MAX_MINUTES: the longest file dubbed, in parts */
  maxMinutes: number;
  /** the file's length and whether it has a picture; undefined when it is no audio or video */
  measure(path: string): Promise<{ seconds: number; hasVideo: boolean } | undefined>;
  /** the pauses in its sound (ffmpeg's silencedetect) */
  findSilences(path: string): Promise<Silence[]>;
  /** cuts its sound at `cutsMs` into `<dir>/<index>.mp3` */
  cutSound(path: string, cutsMs: readonly number[], dir: string): Promise<void>;
  /** where the service downloads the kept input of a generation */
  inputUrl(generationId: string): Promise<string>;
  logger: Pick<Logger, "info" | "warn">;
}

class NotDownloaded extends Error {
  constructor(readonly refusal: SourceRefusal) {
    super(refusal.message);
  }
}

function refusalOfLink(failure: LinkFailure, maxBytes: number): SourceRefusal {
  if (failure === "size-cap")
    return { reason: "source_too_large", message: `larger than ${maxBytes} bytes`, maxBytes };
  if (failure === "unreadable") return { reason: "source_unreadable", message: "not readable" };
  return { reason: "source_unreachable", message: `download failed: ${failure}`, failure };
}

export function dubSourcePreparer(deps: DubSourceDeps) {
  /** The kept copy of the source (a second attempt takes the one already kept). */
  async function keep(g: Generation, source: InputRef) {
    const kept = await deps.store.findInput(g.id);
    if (kept) return kept;
    return deps.store.keepInput(g.id, async (destination) => {
      if (source.kind === "url") {
        const got = await deps.download(source.url, destination);
        if (!got.ok) throw new NotDownloaded(refusalOfLink(got.reason, deps.maxBytes));
        return { contentType: got.value.contentType, url: source.url };
      }
      try {
        await deps.telegramFile(source.fileId, destination);
      } catch (err) {
        if (!(err instanceof TelegramFileRefused)) throw err;
        throw new NotDownloaded(
          err.reason === "too-big"
            ? { reason: "source_too_large", message: "too big for the Bot API", maxBytes: deps.maxBytes }
            : {
                reason: "source_unreachable",
                message: "Telegram no longer has the file",
                failure: "telegram",
              },
        );
      }
      return { contentType: source.mimeType, url: `file:///${source.fileName ?? "source"}` };
    });
  }

  /** The parts as kept (a crash after the cut), or the file cut now at its pauses. */
  async function partsOf(g: Generation, path: string, seconds: number): Promise<PartPlanned[]> {
    const kept = await deps.store.findParts(g.id);
    if (kept) return kept as PartPlanned[];
    const durationMs = Math.round(seconds * 1000);
    const cuts = cutPoints(durationMs, await deps.findSilences(path));
    const plan = await deps.store.keepParts(g.id, async (dir) => {
      await deps.cutSound(path, cuts, dir);
      return planParts(durationMs, cuts);
    });
    faultPoint("dub:parts-kept");
    return plan;
  }

  async function prepare(g: Generation, p: GenerationParams): Promise<SourceOutcome> {
    if (p.operation !== "dub") return { kind: "as-is" };
    let file: Awaited<ReturnType<typeof keep>>;
    try {
      file = await keep(g, p.source);
    } catch (err) {
      if (!(err instanceof NotDownloaded)) throw err;
      deps.logger.info({ generationId: g.id, reason: err.refusal.reason }, "dubbing source not kept");
      return { kind: "refused", error: err.refusal };
    }
    // ffmpeg reads a file of this host's disk: the kept one, or a copy of it out of a bucket
    return deps.store.withLocalFiles([file], ([path]) => decide(g, path!));
  }

  /** A kept source measured: refused, sent whole, or cut into parts. */
  async function decide(g: Generation, path: string): Promise<SourceOutcome> {
    const measured = await deps.measure(path);
    if (!measured)
      return { kind: "refused", error: { reason: "source_unreadable", message: "length not readable" } };
    const { seconds } = measured;
    if (seconds > deps.maxMinutes * 60) {
      return {
        kind: "refused",
        error: { reason: "source_too_long", message: `${seconds} s`, seconds, maxMinutes: deps.maxMinutes },
      };
    }
    // the parts are cut within these budgets: what the service can bill for them, held or not sent
    const budgets = dubBudgets(seconds);
    const needed = budgetsPrice(deps.prices.withDiscount(g.discount), budgets);
    if (!needed.ok || needed.credits > g.price) {
      deps.logger.info(
        { generationId: g.id, seconds, held: g.price, needed: needed.ok ? needed.credits : null },
        "dubbing source longer than its hold: not sent",
      );
      return {
        kind: "refused",
        error: {
          reason: "source_longer",
          message: `${seconds} s, held for less`,
          seconds,
          needed: needed.ok ? needed.credits : 0,
        },
      };
    }
    if (budgets.length === 1) return { kind: "whole", url: await deps.inputUrl(g.id), seconds };
    try {
      return { kind: "parts", plan: await partsOf(g, path, seconds), seconds };
    } catch (err) {
      if (!(err instanceof FfmpegError && err.missing)) throw err;
      deps.logger.warn({ generationId: g.id }, "ffmpeg is not installed: a dub over 5 minutes cannot be cut");
      return { kind: "refused", error: { reason: "source_uncut", message: err.message, seconds } };
    }
  }

  return prepare;
}
