import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { z } from "zod";
import type { GenerationReads } from "../../domain/generations/reads";
import type { AppInput } from "./contract";

/** An input the Mini App may name by id: a Telegram file (or a request's https link), with what is known of it. */
const keptInput = z.object({
  userId: z.number().int(),
  ref: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("telegram"), fileId: z.string().min(1) }),
    z.object({ kind: z.literal("url"), url: z.string().min(1) }),
  ]),
  media: z.enum(["photo", "audio", "video"]),
  durationSeconds: z.number().nonnegative().optional(),
});
export type KeptInput = z.infer<typeof keptInput>;

/** How long an upload can be used in a request: a day, as long as the page's initData lives. */
const keptSeconds = 24 * 3600;

/**
 * Uploads of the Mini App, by a random id, in Redis for a day. Only their
 * uploader can use them: another user's id is as good as an unknown one.
 */
export function keptInputs(redis: Redis, prefix: string) {
  const keyOf = (id: string) => `${prefix}:miniapp:input:${id}`;
  return {
    async keep(input: KeptInput): Promise<string> {
      const id = randomUUID();
      await redis.set(keyOf(id), JSON.stringify(input), "EX", keptSeconds);
      return id;
    },
    async find(userId: number, id: string): Promise<KeptInput | undefined> {
      if (!z.uuid().safeParse(id).success) return undefined;
      const raw = await redis.get(keyOf(id));
      if (raw === null) return undefined;
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return undefined;
      }
      const parsed = keptInput.safeParse(json);
      return parsed.success && parsed.data.userId === userId ? parsed.data : undefined;
    },
  };
}
export type KeptInputs = ReturnType<typeof keptInputs>;

/** An input resolved: what the service gets (a Telegram file through our file proxy, or a link), and its facts. */
export type ResolvedInput = Omit<KeptInput, "userId">;

export interface InputDeps {
  inputs: Pick<KeptInputs, "find">;
  generations: Pick<GenerationReads, "get">;
}

/** The caller's own upload, or a picture of the caller's own result; undefined for anything else. */
export async function resolveInput(
  deps: InputDeps,
  userId: number,
  input: AppInput,
): Promise<ResolvedInput | undefined> {
  if (input.kind === "upload") {
    const kept = await deps.inputs.find(userId, input.id);
    return kept && { ref: kept.ref, media: kept.media, durationSeconds: kept.durationSeconds };
  }
  if (!z.uuid().safeParse(input.id).success) return undefined;
  const g = await deps.generations.get(input.id);
  if (!g || g.userId !== userId || (g.operation !== "image" && g.operation !== "edit")) return undefined;
  const fileId = g.fileIds?.[input.picture];
  return fileId ? { ref: { kind: "telegram", fileId }, media: "photo" } : undefined;
}
