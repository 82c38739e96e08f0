import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { Clock } from "../../src/platform/lib/clock";
import type { Logger } from "../../src/platform/lib/logger";
import {
  type DubbingFormat,
  dubbingLanguageNames,
  dubbingModelPrefix,
  type ImageSize,
  limits,
  type Operation,
  type VideoAspectRatio,
} from "../../src/platform/media-service/catalog";
import {
  type DubbingInput,
  type ImageEditInput,
  type ImageGenerationInput,
  resolveImageRequest,
  resolveVideoRequest,
  type VideoGenerationInput,
} from "../../src/platform/media-service/schemas";
import type { OperatorAccount } from "./credits";
import { download } from "./download";
import type { FaultState, TaskFault } from "./faults";
import { dubbingPlan, loopedVideoArgs, simulatorFfmpeg } from "./ffmpeg";
import { type FileStore, fixture, fixturePath } from "./files";
import { probeMedia, sniffImage } from "./media-probe";
import { seededPicture } from "./png";
import { dubbingPrice, imageUnitPrice, videoPrice } from "./pricing";
import type { WebhookTarget } from "./webhook-sender";

/** The task as the service shows it (2.1). */
export interface PublicTask {
  id: string;
  status: string;
  type: string;
  model: string;
  prompt: string;
  images: string[];
  videos: string[];
  audios?: string[];
  error: null | { code: string; message: string };
  credits_reserved: number;
  credits_deducted: boolean;
  metadata?: Record<string, string>;
  created_at: string;
  completed_at: string | null;
}

type Work =
  | { kind: "image"; numImages: number; imageSize: ImageSize; longSide: number; unitPrice: number }
  | {
      kind: "edit";
      numImages: number;
      imageSize: ImageSize;
      longSide: number;
      unitPrice: number;
      urls: string[];
    }
  | { kind: "video"; aspectRatio: VideoAspectRatio; audio: boolean; seconds: number }
  | {
      kind: "dub";
      hasVideo: boolean;
      sourceError?: string;
      /** the downloaded source on disk, when ffmpeg dubs it (else the output is a fixture) */
      source?: { path: string; format: DubbingFormat };
    };

interface TaskRecord {
  view: PublicTask;
  operation: Operation;
  work: Work;
  fault: TaskFault | undefined;
}

export type Registration =
  | { ok: true; task: PublicTask; extra?: { durationSeconds: number; sourceLanguage: string } }
  | { ok: false; status: number; code: string; message: string };

export interface EngineOptions {
  clock: Clock;
  account: OperatorAccount;
  faults: FaultState;
  files: FileStore;
  latencyMs: Record<Operation, number>;
  videoTimeLimitMs: number;
  downloadTimeoutMs: number;
  /** dub with ffmpeg (outputs as long as their inputs); false: the 2-second fixtures */
  ffmpeg: boolean;
  fetch?: typeof fetch;
  publicUrl: () => string;
  webhook: () => WebhookTarget | undefined;
  deliverWebhook: (
    target: WebhookTarget,
    taskId: string,
    payload: unknown,
    o: { delayMs: number; webhookId: string },
  ) => Promise<void>;
  logger?: Pick<Logger, "info" | "warn" | "error"> | undefined;
}

const longSideOf = { "1K": 1024, "2K": 2048, "4K": 4096 } as const;

function pictureSize(imageSize: string, longSide: number): { width: number; height: number } {
  const [w, h] = imageSize.split(":").map(Number) as [number, number];
  return w >= h
    ? { width: longSide, height: Math.round((longSide * h) / w) }
    : { width: Math.round((longSide * w) / h), height: longSide };
}

const videoFixture = (aspect: VideoAspectRatio, audio: boolean) =>
  `video-${aspect === "auto" ? "16:9" : aspect}`.replace(":", "x") + (audio ? "-audio.mp4" : ".mp4");

export function createEngine(opts: EngineOptions) {
  const tasks = new Map<string, TaskRecord>();
  const running = new Set<Promise<void>>();
  const stop = new AbortController();
  setMaxListeners(0, stop.signal); // one listener per sleeping task
  const iso = () => new Date(opts.clock.now()).toISOString();

  function newTask(
    operation: Operation,
    id: string,
    fields: {
      type: string;
      model: string;
      prompt: string;
      credits: number;
      metadata?: Record<string, string>;
    },
    work: Work,
  ): TaskRecord {
    const view: PublicTask = {
      id,
      status: "pending",
      type: fields.type,
      model: fields.model,
      prompt: fields.prompt,
      images: [],
      videos: [],
      ...(operation === "dub" && { audios: [] }),
      error: null,
      credits_reserved: fields.credits,
      credits_deducted: false,
      ...(fields.metadata !== undefined && { metadata: fields.metadata }),
      created_at: iso(),
      completed_at: null,
    };
    const record: TaskRecord = { view, operation, work, fault: opts.faults.takeTaskFault(operation) };
    tasks.set(id, record);
    const run = runTask(record).catch((e) =>
      opts.logger?.error({ err: e, taskId: id }, "simulated task crashed"),
    );
    running.add(run);
    void run.finally(() => running.delete(run));
    return record;
  }

  const noCredits = (needed: number): Registration => ({
    ok: false,
    status: 402,
    code: "insufficient_credits",
    message: `the operator balance cannot cover ${needed} credits`,
  });

  function registerImage(
    req: ImageGenerationInput | ImageEditInput,
    operation: "image" | "edit",
  ): Registration {
    const r = resolveImageRequest(req);
    const unitPrice = imageUnitPrice(r.model, r.resolution);
    const credits = unitPrice * r.numImages;
    if (!opts.account.reserve(credits)) return noCredits(credits);
    const common = {
      numImages: r.numImages,
      imageSize: r.imageSize,
      longSide: longSideOf[r.resolution],
      unitPrice,
    };
    const work: Work =
      operation === "edit" && "image_urls" in req
        ? { kind: "edit", ...common, urls: req.image_urls }
        : { kind: "image", ...common };
    const record = newTask(
      operation,
      `${operation === "edit" ? "edt" : "img"}_${randomUUID()}`,
      { type: "image", model: r.model, prompt: req.prompt, credits, metadata: req.metadata },
      work,
    );
    return { ok: true, task: structuredClone(record.view) };
  }

  function registerVideo(req: VideoGenerationInput): Registration {
    const r = resolveVideoRequest(req);
    const credits = videoPrice(r.model, r.resolution, r.duration);
    if (!opts.account.reserve(credits)) return noCredits(credits);
    const record = newTask(
      "video",
      `vid_${randomUUID()}`,
      { type: "video", model: r.model, prompt: req.prompt, credits, metadata: req.metadata },
      { kind: "video", aspectRatio: r.aspectRatio, audio: r.generateAudio, seconds: r.duration },
    );
    return { ok: true, task: structuredClone(record.view) };
  }

  /** Downloads and measures the source now: the registration reports the measured duration. */
  async function registerDubbing(req: DubbingInput): Promise<Registration> {
    const got = await download(req.source_url, {
      maxBytes: limits.dubbingMaxBytes,
      timeoutMs: opts.downloadTimeoutMs,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    });
    let durationSeconds = 0;
    let hasVideo = false;
    let format: DubbingFormat | undefined;
    let sourceError: string | undefined;
    if (got.ok) {
      const probe = await probeMedia(got.bytes, got.contentType);
      if (!probe.ok)
        return { ok: false, status: 400, code: "invalid_request", message: `source_url: ${probe.reason}` };
      if (probe.durationSeconds > limits.dubbingMaxSeconds) {
        return {
          ok: false,
          status: 400,
          code: "invalid_request",
          message: `source_url: ${probe.durationSeconds} s is longer than the ${limits.dubbingMaxSeconds / 60} minutes allowed; split it`,
        };
      }
      durationSeconds = probe.durationSeconds;
      hasVideo = probe.hasVideo;
      format = probe.format;
    } else if (got.tooLarge) {
      return { ok: false, status: 400, code: "invalid_request", message: `source_url: ${got.reason}` };
    } else {
      sourceError = got.reason; // reported through the failed task (section 7)
    }
    const credits = dubbingPrice(durationSeconds);
    if (!opts.account.reserve(credits)) return noCredits(credits);
    let source: { path: string; format: DubbingFormat } | undefined;
    if (got.ok && format && opts.ffmpeg) {
      // on disk until the task's turn, not in memory (up to 100 MB a source)
      try {
        source = { path: await opts.files.keep(got.bytes, format), format };
      } catch (e) {
        opts.account.release(credits);
        throw e;
      }
    }
    const target = req.target_language;
    const sourceLanguage = req.source_language ?? "auto";
    const record = newTask(
      "dub",
      `dub::${randomUUID()}::${target}`,
      {
        type: hasVideo ? "video" : "audio",
        model: `${dubbingModelPrefix}${target}`,
        prompt: `Dub the speech into ${dubbingLanguageNames[target]} (${target}), keeping the speakers' voices.`,
        credits,
        metadata: req.metadata,
      },
      {
        kind: "dub",
        hasVideo,
        ...(sourceError !== undefined && { sourceError }),
        ...(source !== undefined && { source }),
      },
    );
    return { ok: true, task: structuredClone(record.view), extra: { durationSeconds, sourceLanguage } };
  }

  function fail(record: TaskRecord, code: string, message: string, status = "failed"): void {
    opts.account.release(record.view.credits_reserved);
    record.view.status = status;
    record.view.error = { code, message };
    record.view.completed_at = iso();
    opts.logger?.info({ taskId: record.view.id, code }, "simulated task failed");
  }

  function fileUrl(name: string): string {
    return `${opts.publicUrl()}/files/${name}`;
  }

  async function produceOutputs(record: TaskRecord): Promise<{ charge: number }> {
    const v = record.view;
    const w = record.work;
    switch (w.kind) {
      case "image":
      case "edit": {
        const count = Math.max(0, Math.min(w.numImages, record.fault?.imagesReturned ?? w.numImages));
        const { width, height } = pictureSize(w.imageSize, w.longSide);
        for (let i = 0; i < count; i++) {
          const seed = `${v.id}/${i}/${v.prompt}`;
          v.images.push(
            fileUrl(opts.files.add("png", "image/png", () => seededPicture(width, height, seed))),
          );
        }
        return { charge: w.unitPrice * count };
      }
      case "video": {
        const name = videoFixture(w.aspectRatio, w.audio);
        // as long as ordered with ffmpeg; without it, the 2-second fixture as it is
        const file = opts.ffmpeg
          ? await opts.files.addWritten("mp4", "video/mp4", (output) =>
              simulatorFfmpeg(loopedVideoArgs(fixturePath(name), w.seconds, output), { signal: stop.signal }),
            )
          : opts.files.add("mp4", "video/mp4", () => fixture(name));
        v.videos.push(fileUrl(file));
        return { charge: v.credits_reserved };
      }
      case "dub": {
        const source = w.source;
        if (source !== undefined) {
          const plan = dubbingPlan(source.format, w.hasVideo);
          const name = await opts.files.addWritten(plan.ext, plan.contentType, (output) =>
            simulatorFfmpeg(plan.args(source.path, output), { signal: stop.signal }),
          );
          (w.hasVideo ? v.videos : v.audios)?.push(fileUrl(name));
        } else if (w.hasVideo) {
          v.videos.push(fileUrl(opts.files.add("mp4", "video/mp4", () => fixture("video-16x9-audio.mp4"))));
        } else {
          v.audios?.push(fileUrl(opts.files.add("mp3", "audio/mpeg", () => fixture("audio.mp3"))));
        }
        return { charge: v.credits_reserved };
      }
    }
  }

  async function checkReferences(urls: string[]): Promise<string | undefined> {
    for (const url of urls) {
      const got = await download(url, {
        maxBytes: 50 * 1024 * 1024,
        timeoutMs: opts.downloadTimeoutMs,
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
      });
      if (!got.ok) return got.reason;
      if (!sniffImage(got.bytes)) return `${url} is not a PNG, JPEG, WebP or GIF image`;
    }
    return undefined;
  }

  async function runTask(record: TaskRecord): Promise<void> {
    try {
      await processTask(record);
    } finally {
      if (record.work.kind === "dub" && record.work.source !== undefined) {
        await opts.files.discard(record.work.source.path);
      }
    }
  }

  async function processTask(record: TaskRecord): Promise<void> {
    const { fault, work, view } = record;
    const signal = stop.signal;
    await Promise.resolve();
    if (fault?.processingStatus) {
      view.status = fault.processingStatus === true ? "processing" : fault.processingStatus;
    }
    if (work.kind === "edit") {
      const problem = await checkReferences(work.urls);
      if (problem) return fail(record, "download_failed", problem);
    }
    if (work.kind === "dub" && work.sourceError) return fail(record, "download_failed", work.sourceError);

    const latency = opts.latencyMs[record.operation] + (fault?.extraLatencyMs ?? 0);
    if (work.kind === "video" && latency > opts.videoTimeLimitMs) {
      await opts.clock.sleep(opts.videoTimeLimitMs, signal).catch(() => undefined);
      if (signal.aborted) return;
      return fail(record, "timeout", "video processing ran longer than the time limit");
    }
    await opts.clock.sleep(latency, signal).catch(() => undefined);
    if (signal.aborted) return;

    if (fault?.fail) {
      const f = fault.fail === true ? {} : fault.fail;
      return fail(
        record,
        f.code ?? "processing_failed",
        f.message ?? "the model could not process the task",
        f.status,
      );
    }
    let charge: number;
    try {
      ({ charge } = await produceOutputs(record));
    } catch (e) {
      if (signal.aborted) return;
      const message = e instanceof Error ? e.message : String(e);
      opts.logger?.warn({ err: e, taskId: view.id }, "simulated task could not make its output");
      return fail(record, "processing_failed", `the output could not be made: ${message}`);
    }
    opts.account.settle(view.credits_reserved, charge);
    view.status = "completed";
    view.credits_deducted = true;
    view.completed_at = iso();
    opts.logger?.info({ taskId: view.id }, "simulated task completed");
    sendWebhook(record);
  }

  function sendWebhook(record: TaskRecord): void {
    const target = opts.webhook();
    const mode = record.fault?.webhook;
    if (!target || mode === "drop") return;
    const payload = { event: "task.completed", data: structuredClone(record.view) };
    const delayMs = typeof mode === "object" ? mode.delayMs : 0;
    const sends = mode === "duplicate" ? 2 : 1;
    // a duplicate is a redelivery of the same message: same webhook-id
    const webhookId = `msg_${randomUUID()}`;
    for (let i = 0; i < sends; i++) {
      const p = opts.deliverWebhook(target, record.view.id, payload, { delayMs: delayMs + i, webhookId });
      running.add(p);
      void p.finally(() => running.delete(p));
    }
  }

  return {
    registerImage,
    registerVideo,
    registerDubbing,
    get: (id: string): PublicTask | undefined => tasks.get(id)?.view,
    all: (): PublicTask[] => [...tasks.values()].map((t) => t.view),
    signal: stop.signal,
    async close(): Promise<void> {
      stop.abort();
      await Promise.allSettled([...running]);
    },
  };
}
export type Engine = ReturnType<typeof createEngine>;
