import type { Credits } from "../credits/ledger";
import type { Database } from "../db/client";
import type { generations } from "../db/schema";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { Prices } from "../pricing/prices";
import type { GenerationsContext } from "./context";
import { generationCreation } from "./create";
import { deliveryRecords } from "./delivery-records";
import type { LifecycleObserver } from "./lifecycle";
import { orphanRecords } from "./orphans";
import type { GenerationParamsInput, Operation } from "./params";
import { generationReads } from "./reads";
import { defaultDeadlines } from "./states";
import { generationTransitions } from "./transitions";

export { defaultDeadlines, endedBadly, mayStillComplete, stillRunning, toDeliver } from "./states";

export type Generation = typeof generations.$inferSelect;

export interface GenerationQueues {
  submit(id: string, opts?: { delayMs?: number }): Promise<void>;
  /** `now` promotes a sync already waiting (a webhook arrived) */
  sync(id: string, opts?: { delayMs?: number; now?: boolean; adopt?: string }): Promise<void>;
  deliver(id: string): Promise<void>;
}

export interface ChatRef {
  chatId: number | null;
  threadId?: number | null;
  replyToMessageId?: number | null;
  statusMessageId?: number | null;
  inlineMessageId?: string | null;
}

export interface CreateInput {
  /** the same on every replay of the confirming update: a double tap creates one generation */
  key: string;
  userId: number;
  language: string;
  chat: ChatRef;
  params: GenerationParamsInput;
  /** the price the user saw; when the table changed since, nothing is created */
  expectedPrice?: number;
  /** the status text the caller is about to show on `chat.statusMessageId` */
  statusShown?: string;
  /**
   * The caller shows the status first, then calls `enqueueSubmit`, so the
   * worker's edits of the status message come after its own. Left unenqueued
   * (a crash), the reconciler enqueues it.
   */
  deferSubmit?: boolean;
}

export type CreateResult =
  | { ok: true; generation: Generation; created: boolean }
  | { ok: false; reason: "insufficient"; price: number; available: number; missing: number }
  | { ok: false; reason: "invalid"; message: string }
  | { ok: false; reason: "no_price" }
  | { ok: false; reason: "price_changed"; price: number }
  /** an admin banned the user: nothing is created or held */
  | { ok: false; reason: "banned" };

export interface OutputSet {
  images: string[];
  videos: string[];
  audios: string[];
}

export interface GenerationsOptions {
  db: Database;
  credits: Credits;
  prices: Prices;
  queues: GenerationQueues;
  clock: Clock;
  logger: Logger;
  /** told of each step a generation takes (logs, business metrics) */
  observe?: LifecycleObserver;
  /** a task the service ran that no generation can take was recorded */
  onOrphan?(taskId: string, serviceCredits: number | null): void;
  /** how long after submission a task may run before we expire it, by operation (clock ms) */
  deadlineMs?: Partial<Record<Operation, number>>;
}

/**
 * Generations, the life of one request: creation, the state machine's arrows,
 * reads, what was delivered and shown, and orphan tasks, each in its own module.
 */
export function createGenerations(opts: GenerationsOptions) {
  const deadlines = { ...defaultDeadlines, ...opts.deadlineMs };
  const ctx: GenerationsContext = { ...opts, deadlines, now: () => new Date(opts.clock.now()) };
  const reads = generationReads(ctx);
  return {
    ...generationCreation(ctx),
    ...reads,
    ...generationTransitions(ctx, reads),
    ...deliveryRecords(ctx),
    ...orphanRecords(ctx),
    deadlineOf: (op: Operation) => deadlines[op],
  };
}

export type Generations = ReturnType<typeof createGenerations>;
