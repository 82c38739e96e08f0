import type { Operation } from "../../src/platform/media-service/catalog";

/** What a test can make the simulator do wrong. */

export interface TaskFault {
  /** only tasks of this operation take the fault; any when absent */
  operation?: Operation;
  /** fail the task at the end of processing, with this error (default `{code:"processing_failed"}`) */
  fail?: true | { code?: string; message?: string; status?: string };
  /** extra processing time (clock ms); a video pushed past the time limit fails and releases */
  extraLatencyMs?: number;
  /** complete with this many images even if more were asked */
  imagesReturned?: number;
  /** report this status (default "processing") while the task runs, instead of "pending" */
  processingStatus?: true | string;
  /** webhook of this task: not sent, sent twice, or sent late (clock ms) */
  webhook?: "drop" | "duplicate" | { delayMs: number };
}

export interface CreateFault {
  /** the HTTP status to answer, e.g. 500, 503, 429, 401, 402; without one the request is served normally */
  status?: number;
  /** hold the request this long (clock ms) before answering: a slow service, or a client killed mid-request */
  delayMs?: number;
  /** how many create requests get it; default 1 */
  times?: number;
  operation?: Operation;
  /** answer the error after the task was registered (a lost response) */
  afterCreate?: boolean;
  retryAfterSeconds?: number;
  code?: string;
}

export interface FaultControls {
  /** the next task (of `fault.operation`, if set) gets this fault; queued in order */
  nextTask(fault: TaskFault): void;
  /** the next create request(s) are answered with an error */
  nextCreate(fault: CreateFault): void;
  /** the next task lookups are answered with this status (e.g. 500, 503) */
  nextLookup(fault: { status: number; times?: number }): void;
  /** from now until `clear()`, a create's Idempotency-Key is not remembered: a resend makes a second task */
  forgetIdempotencyKeys(): void;
  /** forgets every queued fault */
  clear(): void;
}

export class FaultState implements FaultControls {
  private tasks: TaskFault[] = [];
  private creates: Array<CreateFault & { left: number }> = [];
  private lookups: Array<{ status: number; left: number }> = [];
  /** set by `forgetIdempotencyKeys()` */
  amnesia = false;

  nextTask(fault: TaskFault): void {
    this.tasks.push(fault);
  }

  nextCreate(fault: CreateFault): void {
    this.creates.push({ ...fault, left: fault.times ?? 1 });
  }

  nextLookup(fault: { status: number; times?: number }): void {
    this.lookups.push({ status: fault.status, left: fault.times ?? 1 });
  }

  forgetIdempotencyKeys(): void {
    this.amnesia = true;
  }

  clear(): void {
    this.amnesia = false;
    this.tasks = [];
    this.creates = [];
    this.lookups = [];
  }

  takeTaskFault(operation: Operation): TaskFault | undefined {
    const i = this.tasks.findIndex((f) => f.operation === undefined || f.operation === operation);
    return i < 0 ? undefined : this.tasks.splice(i, 1)[0];
  }

  takeCreateFault(operation: Operation, phase: "before" | "after"): CreateFault | undefined {
    const f = this.creates.find(
      (c) =>
        c.left > 0 &&
        (c.operation === undefined || c.operation === operation) &&
        (c.afterCreate === true) === (phase === "after"),
    );
    if (!f) return undefined;
    f.left--;
    this.creates = this.creates.filter((c) => c.left > 0);
    return f;
  }

  takeLookupFault(): number | undefined {
    const f = this.lookups.find((l) => l.left > 0);
    if (!f) return undefined;
    f.left--;
    this.lookups = this.lookups.filter((l) => l.left > 0);
    return f.status;
  }
}
