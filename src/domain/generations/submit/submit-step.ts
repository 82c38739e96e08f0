import type { z } from "zod";
import type { Clock } from "../../../platform/lib/clock";
import type { Logger } from "../../../platform/lib/logger";
import type { MediaClient } from "../../../platform/media-service/client";
import { MediaServiceError } from "../../../platform/media-service/errors";
import type { Metadata } from "../../../platform/media-service/schemas";
import { type JobHandler, type JobKind, jobHandler, type QueueSpec } from "../../../platform/queue/job";
import { logNotShown } from "../../../platform/telegram/telegram-error";
import { TelegramFileRefused } from "../../../platform/telegram/telegram-files";
import type { OrphanRecords } from "../orphans";
import type { InputRef } from "../params";
import type { DubPartRecords } from "../parts";
import type { GenerationReads } from "../reads";
import type { Generations } from "../service";
import { buildServiceRequest, sendServiceRequest } from "../service-request";
import type { GenerationTransitions } from "../transitions";
import { type Generation, type GenerationQueues, generationJobData } from "../types";
import type { SourceOutcome, SourceRefusal } from "./dub-source";
import { inputsOf } from "./input-links";

export interface SubmitDeps {
  generations: Pick<GenerationReads, "get" | "paramsOf"> &
    Pick<GenerationTransitions, "startSubmit" | "resubmit" | "accept" | "reject" | "failSubmit" | "requeue"> &
    Pick<OrphanRecords, "recordOrphan"> &
    Pick<DubPartRecords, "startParts">;
  media: MediaClient;
  clock: Clock;
  logger: Logger;
  metadataFor(g: Generation): Metadata;
  /** where the service downloads input `index` of a generation (`inputLinks`) */
  inputUrl(g: Generation, ref: InputRef, index: number): Promise<string>;
  /** a dubbing source kept, measured and, past the service's 5 minutes, cut into parts before it is sent (`dubSourcePreparer`); absent, inputs go as they are */
  prepareDub?(g: Generation, params: ReturnType<Generations["paramsOf"]>): Promise<SourceOutcome>;

  limits: {
    /** how long a generation whose create may have reached the service waits for a webhook to adopt its task */
    adoptionGraceMs: number;
    /** sends to the service before we give up and return the credits */
    maxSubmissions: number;
    /** a dub in parts: how many of its parts run on the service at once (the deadline allows for the waves) */
    partsAtOnce: number;
  };
  /** first poll of a new task */
  firstPollDelayMs(g: Generation): number;
  queues: Pick<GenerationQueues, "sync" | "deliver">;
  /** the task is on the service: tell the user it is being worked on */
  onAccepted?(g: Generation): Promise<void>;
  /** the operator's problem (key, balance, URL): told once per pause */
  alertOperator(problem: string): Promise<void>;
}

export type SubmitOutcome =
  | { kind: "nothing-to-do" }
  | { kind: "accepted"; taskId: string }
  | { kind: "rejected" }
  | { kind: "gave-up" }
  /** a dub cut into parts, which the sync step sends */
  | { kind: "split"; parts: number }
  /** clock ms; the service may hold our task: only a webhook or the grace period ends this */
  | { kind: "wait-for-adoption"; delayMs: number }
  /** the service surely did not take it: retry with backoff */
  | { kind: "retry"; error: MediaServiceError | Error }
  /** stop submitting for a while (`realMs` when the service said how long in real time) */
  | { kind: "pause"; delayMs: number; realMs?: number };

/** Errors after which the service may or may not have registered the task. */
const ambiguous = new Set(["timeout", "bad_response", "conflict"]);
const operatorProblems = new Set(["unauthorized", "payment_required", "not_found"]);

/**
 * One submission attempt. On the queue's `final` attempt, an error that would be
 * retried ends the generation instead: the user gets their credits back and is told.
 */
export async function submitGeneration(
  id: string,
  deps: SubmitDeps,
  pauseMs: number,
  attempt: { final: boolean } = { final: false },
): Promise<SubmitOutcome> {
  const outcome = await submitOnce(id, deps, pauseMs);
  if (outcome.kind === "retry" && attempt.final) return giveUp(id, deps, outcome.error.message);
  return outcome;
}

async function submitOnce(id: string, deps: SubmitDeps, pauseMs: number): Promise<SubmitOutcome> {
  const { generations, clock } = deps;
  const current = await generations.get(id);
  if (!current) return { kind: "nothing-to-do" };
  let g: Generation | null;
  let source: SourceOutcome | Extract<SubmitOutcome, { kind: "retry" }> | undefined;
  let links: Awaited<ReturnType<typeof inputLinksOf>> = { kind: "links", urls: [] };
  if (current.state === "submitting") {
    // Our create may have reached the service (a crash, a timeout): give a webhook
    // carrying our gid the chance to adopt that task before sending the same key again.
    const since = clock.now() - (current.submittedAt?.getTime() ?? 0);
    if (since < deps.limits.adoptionGraceMs)
      return { kind: "wait-for-adoption", delayMs: deps.limits.adoptionGraceMs - since };
    if (current.attempts >= deps.limits.maxSubmissions) return giveUp(id, deps, "no answer from the service");
    deps.logger.info(
      { generationId: id },
      "no webhook adopted the task in time: sending again with the same key",
    );
    g = await generations.resubmit(id);
    // the same request as the first send: the kept copy, already measured
    if (g) source = await prepareSource(g, deps);
    if (source?.kind === "retry") return source;
    if (source?.kind === "refused") return endRefused(id, source.error, deps);
    if (g) links = await inputLinksOf(g, source, deps);
    if (links.kind === "retry") return links;
    if (links.kind === "refused") return endRefused(id, links.error, deps);
  } else if (current.state === "queued") {
    // before anything is sent, so a crash here leaves nothing the service may hold
    source = await prepareSource(current, deps);
    if (source.kind === "retry") return source;
    if (source.kind === "refused") return endRefused(id, source.error, deps);
    if (source.kind === "parts") return startParts(current, source.plan, deps);
    links = await inputLinksOf(current, source, deps);
    if (links.kind === "retry") return links;
    if (links.kind === "refused") return endRefused(id, links.error, deps);
    g = await generations.startSubmit(id);
  } else {
    return { kind: "nothing-to-do" };
  }
  if (!g) return { kind: "nothing-to-do" };

  const params = generations.paramsOf(g);
  const refs = inputsOf(params);
  const built = buildServiceRequest(
    params,
    deps.metadataFor(g),
    (ref) => links.urls[refs.indexOf(ref)] ?? "",
  );
  if (!built.ok) {
    const rejected = await generations.reject(id, {
      reason: "invalid_request",
      message: built.problems.join("; "),
    });
    if (rejected) await deps.queues.deliver(id);
    return { kind: "rejected" };
  }

  let registered: Awaited<ReturnType<typeof sendServiceRequest>>;
  try {
    registered = await sendServiceRequest(deps.media, built.request, g.id);
  } catch (err) {
    return afterFailedSend(id, err, deps, pauseMs);
  }

  const moved = await generations.accept(id, registered);
  if (!moved) {
    // A webhook adopted another task for this gid meanwhile; the one we just got is ours to pay for.
    const now = await generations.get(id);
    if (now?.taskId !== registered.taskId) {
      await generations.recordOrphan(
        registered.taskId,
        id,
        registered.serviceCredits,
        "created after adoption",
      );
    }
    return { kind: "nothing-to-do" };
  }
  // the task is safe in Postgres now: a lost enqueue is made good by the reconciler
  await deps.queues
    .sync(id, { delayMs: deps.firstPollDelayMs(moved) })
    .catch((err: unknown) => deps.logger.warn({ err, generationId: id }, "first poll not enqueued"));
  await deps
    .onAccepted?.(moved)
    .catch((err: unknown) => logNotShown(deps.logger, err, { generationId: id }, "status not shown"));
  return { kind: "accepted", taskId: registered.taskId };
}

/**
 * Where the service downloads each input, in the order the request names
 * them: a dub's source as our kept copy, whatever it came as. Kept before
 * anything is sent, so a failure here is retried safely.
 */
async function inputLinksOf(
  g: Generation,
  source: SourceOutcome | undefined,
  deps: SubmitDeps,
): Promise<
  | { kind: "links"; urls: string[] }
  | { kind: "refused"; error: SourceRefusal }
  | Extract<SubmitOutcome, { kind: "retry" }>
> {
  const refs = inputsOf(deps.generations.paramsOf(g));
  const keptUrl = source?.kind === "whole" ? source.url : undefined;
  try {
    const urls = keptUrl
      ? refs.map(() => keptUrl)
      : await Promise.all(refs.map((r, i) => deps.inputUrl(g, r, i)));
    return { kind: "links", urls };
  } catch (err) {
    // a photo Telegram no longer gives (kept for a bucket first) will not come back: no retry
    if (err instanceof TelegramFileRefused) {
      const message = `Telegram file ${err.reason}`;
      return { kind: "refused", error: { reason: "source_unreachable", message, failure: "telegram" } };
    }
    return { kind: "retry", error: err instanceof Error ? err : new Error(String(err)) };
  }
}

/** The dub's source kept (and measured, and cut), or a retry when our own storage failed (nothing was sent). */
async function prepareSource(
  g: Generation,
  deps: SubmitDeps,
): Promise<SourceOutcome | Extract<SubmitOutcome, { kind: "retry" }>> {
  if (!deps.prepareDub) return { kind: "as-is" };
  try {
    return await deps.prepareDub(g, deps.generations.paramsOf(g));
  } catch (err) {
    return { kind: "retry", error: err instanceof Error ? err : new Error(String(err)) };
  }
}

/** The input cannot be sent for the price held: the generation ends before the service sees it, released. */
/**
 * A dub in parts: queued → pending with its parts, in one transaction; the sync
 * step sends them and follows them. Nothing was sent yet: a crash before this
 * leaves the generation queued, and the next run finds the parts kept.
 */
async function startParts(
  g: Generation,
  plan: Parameters<Generations["startParts"]>[1],
  deps: SubmitDeps,
): Promise<SubmitOutcome> {
  const started = await deps.generations.startParts(g.id, plan, deps.limits.partsAtOnce);
  if (!started) return { kind: "nothing-to-do" };
  await deps.queues
    .sync(g.id, { now: true })
    .catch((err: unknown) => deps.logger.warn({ err, generationId: g.id }, "first poll not enqueued"));
  await deps
    .onAccepted?.(started)
    .catch((err: unknown) => logNotShown(deps.logger, err, { generationId: g.id }, "status not shown"));
  return { kind: "split", parts: plan.length };
}

async function endRefused(id: string, error: SourceRefusal, deps: SubmitDeps): Promise<SubmitOutcome> {
  const failed = await deps.generations.failSubmit(id, error);
  if (failed) await deps.queues.deliver(id);
  return { kind: "rejected" };
}

async function afterFailedSend(
  id: string,
  err: unknown,
  deps: SubmitDeps,
  pauseMs: number,
): Promise<SubmitOutcome> {
  const { generations } = deps;
  if (!(err instanceof MediaServiceError)) {
    await generations.requeue(id);
    return { kind: "retry", error: err as Error };
  }
  if (err.kind === "invalid_request") {
    const rejected = await generations.reject(id, {
      reason: "invalid_request",
      code: err.code ?? null,
      message: err.message,
    });
    if (rejected) await deps.queues.deliver(id);
    return { kind: "rejected" };
  }
  if (ambiguous.has(err.kind)) {
    // stays `submitting`: sending again now could make a second paid task
    deps.logger.warn(
      { generationId: id, kind: err.kind },
      "the service may have the task: waiting for its webhook",
    );
    return { kind: "wait-for-adoption", delayMs: deps.limits.adoptionGraceMs };
  }
  await generations.requeue(id);
  if (operatorProblems.has(err.kind)) {
    await deps.alertOperator(
      `the media service refused us (${err.status ?? "?"} ${err.code ?? err.kind}): ${err.message}`,
    );
    return { kind: "pause", delayMs: pauseMs };
  }
  if (err.kind === "rate_limited" && err.retryAfterMs)
    return { kind: "pause", delayMs: pauseMs, realMs: err.retryAfterMs };
  return { kind: "retry", error: err };
}

async function giveUp(id: string, deps: Pick<SubmitDeps, "generations" | "queues">, why: string) {
  const failed = await deps.generations.failSubmit(id, { reason: "service_unavailable", message: why });
  if (failed) await deps.queues.deliver(id);
  return { kind: "gave-up" } as const;
}

/** After the last retry: the user gets their credits back and is told. */
export async function giveUpSubmit(
  id: string,
  deps: Pick<SubmitDeps, "generations" | "queues">,
  error: Error,
) {
  await giveUp(id, deps, error.message);
}

/** Submits wait out a service that asks for a pause all together (the limiter makes the pause shared). */
export const submitQueue: QueueSpec = { name: "submit", concurrency: 4, limiter: "pausable" };

/** The submit job: one per generation (its id is the job id), sent to the service. */
export const submitJob: JobKind<z.infer<typeof generationJobData>> = {
  queue: submitQueue,
  name: "submit",
  label: "submit",
  data: generationJobData,
  policy: { attempts: 8, backoffMs: 2_000 },
};

/** Runs `submitGeneration` and tells the queue what follows: done, later, a pause of all submits, or a retry. */
export function submitJobHandler(
  deps: SubmitDeps,
  /** how long submitting pauses after the service refused our key or balance (clock ms) */
  operatorPauseMs: number,
): JobHandler {
  return jobHandler(submitJob, async ({ gid }, attempt) => {
    const outcome = await submitGeneration(gid, deps, operatorPauseMs, attempt);
    switch (outcome.kind) {
      case "wait-for-adoption":
        return { kind: "later", outcome: outcome.kind, realMs: deps.clock.toReal(outcome.delayMs) };
      case "pause":
        return {
          kind: "pause",
          outcome: outcome.kind,
          realMs: outcome.realMs ?? deps.clock.toReal(outcome.delayMs),
        };
      case "retry":
        throw outcome.error;
      default:
        return { kind: "done", outcome: outcome.kind };
    }
  });
}
