import { createReadStream, createWriteStream } from "node:fs";
import { isAbsolute } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { Api } from "grammy";
import { releasingChunks } from "../lib/release-chunks";
import { classifyTelegramError } from "./telegram-error";

/**
 * How this bot reads the files users send. The cloud Bot API hands out files
 * up to 20 MB, by a URL that holds the bot token (so it never leaves this
 * process); a local Bot API server (`telegram-bot-api --local`,
 * TELEGRAM_LOCAL_FILES) hands out files up to 2,000 MB by their absolute path
 * on a disk the bot shares with it.
 */
export interface TelegramFileAccess {
  api: Pick<Api, "getFile">;
  token: string;
  apiRoot: string;
  localFiles: boolean;
}

/** Telegram refused the file for good (too big to hand out, or gone), or it is larger than asked for. */
export type TelegramFileRefusal = "too-big" | "gone";

export class TelegramFileRefused extends Error {
  override name = "TelegramFileRefused";
  constructor(readonly reason: TelegramFileRefusal) {
    super(`telegram file ${reason}`);
  }
}

/**
 * Streams a user's file into `destination`, at most `maxBytes`. Throws
 * `TelegramFileRefused` when it cannot ever be had; any other error (the
 * network, Telegram's 5xx) is worth another try. An error never quotes the URL.
 */
export async function saveTelegramFile(
  tg: TelegramFileAccess,
  fileId: string,
  destination: string,
  options: { maxBytes: number; timeoutMs: number },
): Promise<void> {
  let filePath: string | undefined;
  try {
    filePath = (await tg.api.getFile(fileId)).file_path;
  } catch (err) {
    const kind = classifyTelegramError(err)?.kind;
    if (kind === "rejected") {
      throw new TelegramFileRefused(/too big/i.test(String((err as Error).message)) ? "too-big" : "gone");
    }
    throw err;
  }
  if (!filePath) throw new TelegramFileRefused("gone");
  const capped = sizeCap(options.maxBytes);
  if (tg.localFiles && isAbsolute(filePath)) {
    await pipeline(createReadStream(filePath), capped, releasingChunks(), createWriteStream(destination));
    return;
  }
  const response = await fetch(`${tg.apiRoot}/file/bot${tg.token}/${filePath}`, {
    signal: AbortSignal.timeout(options.timeoutMs),
  }).catch((err: unknown) => {
    throw new Error(`telegram file download failed (${err instanceof Error ? err.name : "unknown"})`);
  });
  if (response.status === 404) throw new TelegramFileRefused("gone");
  if (!response.ok || !response.body) throw new Error(`telegram file download answered ${response.status}`);
  await pipeline(
    Readable.fromWeb(response.body as unknown as WebReadableStream),
    capped,
    releasingChunks(),
    createWriteStream(destination),
  );
}

function sizeCap(maxBytes: number): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(new TelegramFileRefused("too-big"));
      done(null, chunk);
    },
  });
}
