import type { Clock } from "../../../platform/lib/clock";
import { faultPoint } from "../../../platform/lib/fault-point";
import type { Logger } from "../../../platform/lib/logger";
import { pollIntervalMs } from "../../../platform/media-service/catalog";
import type { MediaClient } from "../../../platform/media-service/client";
import { MediaServiceError } from "../../../platform/media-service/errors";
import type { Metadata } from "../../../platform/media-service/schemas";
import { classifyTask } from "../../../platform/media-service/task-status";
import type { OrphanRecords } from "../orphans";
import type { DubPart, DubPartRecords } from "../parts";
import type { GenerationReads } from "../reads";
import { buildServiceRequest, sendServiceRequest } from "../service-request";
import type { GenerationTransitions } from "../transitions";
import type { Generation, GenerationQueues } from "../types";
import type { SyncOutcome } from "./outcome";

export interface PartsSyncDeps {
  generations: Pick<GenerationReads, "get" | "paramsOf" | "deadlineOf"> &
    Pick<GenerationTransitions, "complete" | "fail" | "expire"> &
    Pick<OrphanRecords, "recordOrphan"> &
    Pick<
      DubPartRecords,
      | "partsOf"
      | "claimPart"
      | "resendPart"
      | "requeuePart"
      | "acceptPart"
      | "retryPart"
      | "completePart"
      | "failPart"
    >;
  media: MediaClient;
  clock: Clock;
  logger: Logger;
  metadataFor(g: Generation): Metadata;
  /** our signed URL of a kept part */
  partUrl(generationId: string, index: number): Promise<string>;
  /** joins the dubbed parts into the result (in our storage) and says where it is and what it is */
  join(g: Generation, parts: readonly DubPart[]): Promise<{ url: string; video: boolean }>;
  queues: Pick<GenerationQueues, "deliver">;
  /** the status says how far the parts are */
  onProgress?(g: Generation): Promise<void>;
  limits: {
    /** parts of one dub on the service at once */
    partsAtOnce: number;
    /** a part whose create got no clear answer waits this long for a webhook before it is sent again, same key */
    adoptionGraceMs: number;
  };
}

/** A part failed by the service is sent once more; a second failure fails the dub. */
const attemptsPerPart = 2;
const ambiguous = new Set(["timeout", "bad_response", "conflict"]);

/** One key per part and attempt: a resend after a crash asks for the same task. */
const partKey = (p: Pick<DubPart, "generationId" | "index" | "attempt">) =>
  `${p.generationId}-part${p.index + 1}-try${p.attempt}`;

/**
 * One look at a dub in parts (the service is the truth for each part): parts
 * it finished are recorded, a failed one is sent again once, queued ones are
 * sent while fewer than `partsAtOnce` run, and when every part is dubbed they
 * are joined and the generation completes (its hold charged for the parts'
 * measured lengths). A part failing twice fails the dub: no other part is
 * sent, the ones the service has are waited for, then the hold is released;
 * what the service billed for the parts it did dub stays our cost.
 */
export async function syncParts(
  g: Generation,
  polls: number,
  deps: PartsSyncDeps,
  adoptTaskId?: string,
): Promise<SyncOutcome> {
  if (g.state !== "pending") return { kind: "nothing-to-do" };
  if (adoptTaskId) await adoptPartTask(g, adoptTaskId, deps);
  const partDeadlineMs = deps.generations.deadlineOf("dub");
  for (const part of await deps.generations.partsOf(g.id)) {
    if (part.state === "pending") await followPart(part, partDeadlineMs, deps);
    if (
      part.state === "submitting" &&
      deps.clock.now() - (part.submittedAt?.getTime() ?? 0) >= deps.limits.adoptionGraceMs
    ) {
      const again = await deps.generations.resendPart(part);
      if (again) await sendPart(g, again, deps);
    }
  }

  let parts = await deps.generations.partsOf(g.id);
  // after a part failed for good nothing more is sent: what the service has is waited for, to know what it billed
  if (!parts.some((p) => p.state === "failed")) {
    let running = parts.filter(isRunning).length;
    for (const part of parts) {
      if (running >= deps.limits.partsAtOnce) break;
      if (part.state !== "queued") continue;
      const claimed = await deps.generations.claimPart(part);
      if (!claimed) continue;
      running++;
      await sendPart(g, claimed, deps);
    }
    parts = await deps.generations.partsOf(g.id);
  }

  const current = (await deps.generations.get(g.id)) ?? g;
  if (current.state !== "pending") return { kind: "nothing-to-do" };
  if (parts.some((p) => p.state === "failed") && !parts.some(isRunning)) return failDub(current, parts, deps);
  if (parts.length > 0 && parts.every((p) => p.state === "completed")) return finish(current, parts, deps);
  if (current.partsDone !== g.partsDone || polls === 0) await showProgress(current, deps);
  if (current.deadlineAt && deps.clock.now() > current.deadlineAt.getTime()) {
    // the parts the service dubbed were billed all the same
    const expired = await deps.generations.expire(g.id, {
      serviceCredits: billed(parts.filter((p) => p.state === "completed")),
    });
    if (expired) await deps.queues.deliver(g.id);
    return { kind: "expired" };
  }
  return { kind: "poll-again", delayMs: pollIntervalMs("dub") };
}

const isRunning = (p: DubPart) => p.state === "submitting" || p.state === "pending";

/** Asks the service about a running part: recorded as dubbed, sent again once, or failed for good. */
async function followPart(part: DubPart, deadlineMs: number, deps: PartsSyncDeps): Promise<void> {
  if (!part.taskId) return;
  let task: Awaited<ReturnType<PartsSyncDeps["media"]["getTask"]>>;
  try {
    task = await deps.media.getTask(part.taskId);
  } catch (err) {
    deps.logger.warn({ err, generationId: part.generationId, part: part.index + 1 }, "part lookup failed");
    return;
  }
  const outcome = classifyTask(task);
  const outputUrl = outcome.outcome === "succeeded" ? (outcome.audios[0] ?? outcome.videos[0]) : undefined;
  if (outputUrl) {
    await deps.generations.completePart(part, {
      outputUrl,
      serviceCredits: task.credits_reserved ?? null,
      measuredSeconds: null,
    });
    return;
  }
  const overdue =
    outcome.outcome === "running" && deps.clock.now() - (part.submittedAt?.getTime() ?? 0) > deadlineMs;
  if (outcome.outcome === "running" && !overdue) return;
  const reason = outcome.outcome === "failed" ? outcome.reason : overdue ? "deadline" : "no dubbed output";
  const last = part.attempt >= attemptsPerPart;
  deps.logger.info(
    { generationId: part.generationId, part: part.index + 1, attempt: part.attempt, reason },
    last ? "dub part failed again: the dub fails" : "dub part failed: sending it again",
  );
  await (last ? deps.generations.failPart(part, reason) : deps.generations.retryPart(part));
}

/** Creates the part's task; one the service refuses (400) fails for good. */
async function sendPart(g: Generation, part: DubPart, deps: PartsSyncDeps): Promise<void> {
  const params = deps.generations.paramsOf(g);
  const metadata = { ...deps.metadataFor(g), part: `${part.index + 1}/${g.partsTotal ?? 0}` };
  const url = await deps.partUrl(g.id, part.index);
  const built = buildServiceRequest(params, metadata, () => url);
  if (!built.ok) {
    await deps.generations.failPart(part, built.problems.join("; "));
    return;
  }
  try {
    const task = await sendServiceRequest(deps.media, built.request, partKey(part));
    faultPoint("dub:part-created");
    await deps.generations.acceptPart(part, task);
  } catch (err) {
    if (err instanceof MediaServiceError && err.kind === "invalid_request") {
      await deps.generations.failPart(part, err.message);
      return;
    }
    // the service may hold the task: a webhook adopts it, or the grace sends the same key again
    if (err instanceof MediaServiceError && ambiguous.has(err.kind)) return;
    deps.logger.warn(
      { err, generationId: g.id, part: part.index + 1 },
      "dub part not sent: trying again later",
    );
    await deps.generations.requeuePart(part);
  }
}

/**
 * A webhook named a task for this dub: a part still waiting on its create
 * takes it, once the service confirms it carries our gid and that part; a
 * second task of a part is our cost.
 */
async function adoptPartTask(g: Generation, taskId: string, deps: PartsSyncDeps): Promise<void> {
  const parts = await deps.generations.partsOf(g.id);
  if (parts.some((p) => p.taskId === taskId)) return;
  let task: Awaited<ReturnType<PartsSyncDeps["media"]["getTask"]>>;
  try {
    task = await deps.media.getTask(taskId);
  } catch (err) {
    deps.logger.warn({ err, generationId: g.id, taskId }, "could not look up a task a webhook named");
    return;
  }
  const label = task.metadata?.part;
  const named = typeof label === "string" ? /^(\d+)\//.exec(label) : null;
  const part = named ? parts.find((p) => p.index === Number(named[1]) - 1) : undefined;
  if (task.metadata?.gid !== g.id || !part) {
    deps.logger.warn({ generationId: g.id, taskId }, "webhook named a task that is not a part of this dub");
    return;
  }
  const measured = typeof task.duration_seconds === "number" ? task.duration_seconds : null;
  const adopted =
    part.state === "submitting"
      ? await deps.generations.acceptPart(part, {
          taskId,
          serviceCredits: task.credits_reserved ?? null,
          measuredSeconds: measured,
        })
      : null;
  if (adopted) {
    deps.logger.info(
      { generationId: g.id, taskId, part: part.index + 1 },
      "adopted a part's task created before a crash",
    );
    return;
  }
  await deps.generations.recordOrphan(
    taskId,
    g.id,
    task.credits_reserved ?? null,
    "second task of a dub part",
  );
}

/** Every part dubbed: joined, then the generation completes, charged for what the service measured. */
async function finish(g: Generation, parts: readonly DubPart[], deps: PartsSyncDeps): Promise<SyncOutcome> {
  const joined = await deps.join(g, parts);
  const done = await deps.generations.complete(
    g.id,
    { images: [], videos: joined.video ? [joined.url] : [], audios: joined.video ? [] : [joined.url] },
    {
      serviceCredits: billed(parts),
      // a part the service did not measure counts for the stretch we cut
      measuredParts: parts.map((p) => p.measuredSeconds ?? (p.endMs - p.startMs) / 1000),
    },
  );
  if (!done) return { kind: "nothing-to-do" };
  await deps.queues.deliver(g.id);
  return { kind: "completed", late: done.late };
}

/** A part failed twice (or was refused), and none runs any more: the dub fails, released; the parts dubbed stay our cost. */
async function failDub(g: Generation, parts: readonly DubPart[], deps: PartsSyncDeps): Promise<SyncOutcome> {
  const part = parts.find((p) => p.state === "failed");
  const failed = await deps.generations.fail(
    g.id,
    { reason: "part_failed", part: (part?.index ?? 0) + 1, message: part?.error ?? "" },
    { serviceCredits: billed(parts.filter((p) => p.state === "completed")) },
  );
  if (failed) await deps.queues.deliver(g.id);
  return { kind: "failed" };
}

const billed = (parts: readonly DubPart[]) => parts.reduce((sum, p) => sum + (p.serviceCredits ?? 0), 0);

async function showProgress(g: Generation, deps: PartsSyncDeps): Promise<void> {
  await deps.onProgress?.(g).catch((err: unknown) => {
    deps.logger.info(
      { err: err instanceof Error ? err.message : String(err), generationId: g.id },
      "progress not shown",
    );
  });
}
