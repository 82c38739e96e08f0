import { z } from "zod";

/** Job payloads are versioned: jobs already in Redis still parse after a deploy. */
export const generationJob = z.object({
  v: z.literal(1),
  gid: z.uuid(),
  /** sync: how many polls so far, for backoff */
  polls: z.number().int().nonnegative().default(0),
  /** sync: a task id a webhook named for this gid, to adopt after a crash in submit */
  adopt: z.string().min(1).optional(),
});
export type GenerationJob = z.infer<typeof generationJob>;

export const queueNames = { submit: "submit", sync: "sync", deliver: "deliver" } as const;

/** One recipient's copy of a broadcast (a job of the deliver queue, behind every result). */
export const broadcastSendJob = z.object({
  v: z.literal(1),
  bid: z.uuid(),
  uid: z.number().int().positive(),
});
export type BroadcastSendJob = z.infer<typeof broadcastSendJob>;

/** A broadcast's heartbeat: tops up its sends, edits the admin's progress, finishes it. */
export const broadcastTickJob = z.object({
  v: z.literal(1),
  bid: z.uuid(),
  /** the highest user id queued so far (lost with Redis: the tick starts over, the rows decide) */
  cursor: z.number().int().nonnegative().default(0),
  /** the progress text last shown, so an unchanged one is not sent again */
  shown: z.string().max(4096).optional(),
});
export type BroadcastTickJob = z.infer<typeof broadcastTickJob>;

/** Job names of the deliver queue, which carries every Telegram send a worker makes. */
export const sendJobNames = {
  deliver: "deliver",
  broadcastSend: "broadcast-send",
  broadcastTick: "broadcast-tick",
} as const;
