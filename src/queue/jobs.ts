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
