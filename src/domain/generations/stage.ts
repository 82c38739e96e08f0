import type { Api } from "grammy";
import type { Config } from "../../platform/config/config";
import type { TranslateFor } from "../../platform/i18n/i18n";
import type { Clock } from "../../platform/lib/clock";
import type { Logger } from "../../platform/lib/logger";
import type { LinkProbeOptions } from "../../platform/links/link-duration";
import type { MediaClient } from "../../platform/media-service/client";
import type { JobHandler, QueueSpec } from "../../platform/queue/job";
import type { MediaStore } from "../../platform/storage/stored-file";
import type { AdminAlert } from "../../platform/telegram/operator-alert";
import { saveTelegramFile } from "../../platform/telegram/telegram-files";
import type { TelegramLink } from "../../platform/telegram/telegram-link";
import type { Prices } from "../pricing/prices";
import type { TelegramLimits } from "./deliver/send-outputs";
import type { Generations } from "./service";
import { showStatus } from "./status";
import { type InputLinkDeps, inputLinks } from "./submit/input-links";
import type { SubmitDeps } from "./submit/submit-step";
import type { SyncHints } from "./sync/sync-hints";
import type { Generation, GenerationQueues } from "./types";

/** What the worker role gives every stage of a generation. */
export interface StageDeps {
  config: Pick<Config, "dub" | "telegram" | "mediaRetentionDays" | "miniAppUrl" | "inlineStorageChatId">;
  generations: Generations;
  generationQueues: GenerationQueues;
  hints: SyncHints;
  media: MediaClient;
  store: MediaStore;
  prices: Prices;
  clock: Clock;
  logger: Logger;
  t: TranslateFor;
  api: Api;
  telegramLink: TelegramLink;
  alert: AdminAlert;
  users: { markBlocked(userId: number): Promise<unknown> };
  metrics: { webhookLag: { observe(seconds: number): void } };
  metadataFor: SubmitDeps["metadataFor"];
  /** our signed links: a user's Telegram upload, a kept input, a stored output */
  telegramFileUrl: InputLinkDeps["proxyLink"];
  keptInputUrl: InputLinkDeps["keptLink"];
  outputUrl(path: string, days: number): string;
  timing: { adoptionGraceMs: number; operatorPauseMs: number; maxPollIntervalMs: number };
  policy: {
    maxSubmissions: number;
    maxDeliveryAttempts: number;
    /** how long a user's upload may take to download, and how long the service's links to inputs last */
    sourceDownloadMs: number;
    inputLinkSeconds: number;
    /** Telegram's upload limits, when a test sets its own */
    telegramLimits?: TelegramLimits | undefined;
  };
  /** how links are read and downloaded (tests: their own certificate and addresses) */
  linkProbe?: LinkProbeOptions | undefined;
}

/** What more than one stage uses, made once per worker. */
export interface StageTools {
  /** where the service downloads a generation's inputs from */
  inputs: ReturnType<typeof inputLinks>;
  /** a user's upload saved to `destination`, within the dub's size and time limits */
  saveUserFile(fileId: string, destination: string): Promise<void>;
  /** the largest dubbing source read (the probe's own limit in tests) */
  sourceMaxBytes: number;
  /** ffmpeg, for cutting a long dub into parts and joining them (Debian's package) */
  ffmpeg: string;
  /** the status message of `g` shown again */
  showStatus(g: Generation): Promise<void>;
}

/** A stage of a generation: its queue and the jobs it runs there. `stages.ts` lists the stages. */
export interface Stage {
  readonly name: string;
  /** where its jobs wait; every process makes the stages' queues, the worker role their workers */
  readonly queue: QueueSpec;
  jobs(deps: StageDeps, tools: StageTools): readonly JobHandler[];
}

export function stageTools(deps: StageDeps): StageTools {
  const { config } = deps;
  const sourceMaxBytes = deps.linkProbe?.download?.maxBytes ?? config.dub.sourceMaxBytes;
  const telegramFiles = {
    api: deps.api,
    token: config.telegram.token ?? "",
    apiRoot: config.telegram.apiRoot,
    localFiles: config.telegram.localFiles,
  };
  const saveUserFile = async (fileId: string, destination: string) => {
    await saveTelegramFile(telegramFiles, fileId, destination, {
      maxBytes: sourceMaxBytes,
      timeoutMs: deps.policy.sourceDownloadMs,
    });
  };
  return {
    inputs: inputLinks({
      store: deps.store,
      proxyLink: deps.telegramFileUrl,
      keptLink: deps.keptInputUrl,
      telegramFile: saveUserFile,
      linkSeconds: deps.policy.inputLinkSeconds,
    }),
    saveUserFile,
    sourceMaxBytes,
    ffmpeg: "ffmpeg",
    showStatus: (g) => showStatus(deps.api, deps.generations, g, deps.t),
  };
}
