import type { InputRef } from "../../generations/params";
import type { Generation, Generations } from "../../generations/service";
import { buildServiceRequest, sendServiceRequest } from "../../generations/service-request";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import type { MediaClient } from "../../media/client";
import { MediaServiceError } from "../../media/errors";
import type { Metadata } from "../../media/schemas";

export interface SubmitDeps {
  generations: Generations;
  media: MediaClient;
  clock: Clock;
  logger: Logger;
  metadataFor(g: Generation): Metadata;
  inputUrl(ref: InputRef): string;
  /** how long a generation found in `submitting` waits for a webhook to adopt its task */
  adoptionGraceMs: number;
  /** first poll of a new task */
  firstPollDelayMs(g: Generation): number;
  enqueueSync(id: string, delayMs: number): Promise<void>;
  enqueueDeliver(id: string): Promise<void>;
  /** the task is on the service: tell the user it is being worked on */
  onAccepted?(g: Generation): Promise<void>;
  /** the operator's problem (key, balance): told once per pause */
  alertOperator(problem: string): Promise<void>;
}

export type SubmitOutcome =
  | { kind: "nothing-to-do" }
  | { kind: "accepted"; taskId: string }
  | { kind: "rejected" }
  | { kind: "wait-for-adoption"; delayMs: number }
  | { kind: "retry"; error: MediaServiceError | Error }
  | { kind: "pause"; delayMs: number };

export async function submitGeneration(
  id: string,
  deps: SubmitDeps,
  pauseMs: number,
): Promise<SubmitOutcome> {
  const { generations, clock } = deps;
  let g = await generations.get(id);
  if (!g) return { kind: "nothing-to-do" };
  if (g.state === "submitting") {
    // Found after a crash: the service may already have this task. Give a webhook
    // carrying our gid the chance to adopt it before sending the same key again.
    const since = clock.now() - (g.submittedAt?.getTime() ?? 0);
    if (since < deps.adoptionGraceMs)
      return { kind: "wait-for-adoption", delayMs: deps.adoptionGraceMs - since };
    deps.logger.info(
      { generationId: id },
      "no webhook adopted the task in time: resubmitting with the same key",
    );
  } else if (g.state === "queued") {
    g = await generations.startSubmit(id);
    if (!g) return { kind: "nothing-to-do" };
  } else {
    return { kind: "nothing-to-do" };
  }

  const built = buildServiceRequest(generations.paramsOf(g), deps.metadataFor(g), deps.inputUrl);
  if (!built.ok) {
    const rejected = await generations.reject(id, {
      reason: "invalid_request",
      message: built.problems.join("; "),
    });
    if (rejected) await deps.enqueueDeliver(id);
    return { kind: "rejected" };
  }

  try {
    const registered = await sendServiceRequest(deps.media, built.request, g.id);
    const moved = await generations.accepted(id, registered);
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
    await deps.enqueueSync(id, deps.firstPollDelayMs(moved));
    await deps
      .onAccepted?.(moved)
      .catch((err: unknown) => deps.logger.warn({ err, generationId: id }, "status not shown"));
    return { kind: "accepted", taskId: registered.taskId };
  } catch (err) {
    if (!(err instanceof MediaServiceError)) {
      await generations.backToQueue(id);
      return { kind: "retry", error: err as Error };
    }
    if (err.kind === "invalid_request") {
      const rejected = await generations.reject(id, {
        reason: "invalid_request",
        code: err.code ?? null,
        message: err.message,
      });
      if (rejected) await deps.enqueueDeliver(id);
      return { kind: "rejected" };
    }
    await generations.backToQueue(id);
    if (err.kind === "unauthorized" || err.kind === "payment_required") {
      await deps.alertOperator(
        `media service refused our key or balance (${err.status ?? "?"} ${err.code ?? ""}): ${err.message}`,
      );
      return { kind: "pause", delayMs: pauseMs };
    }
    if (err.kind === "rate_limited" && err.retryAfterMs) return { kind: "pause", delayMs: err.retryAfterMs };
    return { kind: "retry", error: err };
  }
}

/** After the last retry: the user gets their credits back and is told. */
export async function giveUpSubmit(
  id: string,
  deps: Pick<SubmitDeps, "generations" | "enqueueDeliver">,
  error: Error,
) {
  const failed = await deps.generations.fail(id, { reason: "service_unavailable", message: error.message });
  if (failed) await deps.enqueueDeliver(id);
}
