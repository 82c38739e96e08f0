import { z } from "zod";
import type { generations } from "../../platform/db/schema";
import type { GenerationParamsInput } from "./params";

/** The data of a generation as the rest of the bot sees it (the factory is in service.ts). */

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
  /** the prompt matches one of the operator's refused words or patterns */
  | { ok: false; reason: "refused_prompt" }
  | { ok: false; reason: "price_changed"; price: number }
  /** an admin banned the user: nothing is created or held */
  | { ok: false; reason: "banned" };

export interface OutputSet {
  images: string[];
  videos: string[];
  audios: string[];
}

/** What a generation's job carries in Redis (version 1 of its data): which generation. Each stage's job data is this or extends it. */
export const generationJobData = z.object({ v: z.literal(1), gid: z.uuid() });
