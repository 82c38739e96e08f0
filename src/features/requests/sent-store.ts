import type { Redis } from "ioredis";
import { z } from "zod";
import { inputRef } from "../../domain/generations/params";

/**
 * What a user sent without a command, kept while its offer can be taken: the
 * photos (an album gathered on its first photo's record), the file to dub, or
 * the text. Keyed by chat and the sent (first) message id, which the offer's
 * buttons carry: callback data is too small for the files or the text. It lives
 * in Redis for a day and is taken once (a second press finds nothing): an
 * offer lost to a Redis flush is only an offer to send again, nothing is owed.
 */
const photoInput = z.object({
  ref: inputRef,
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
});
const mediaInput = z.object({
  ref: inputRef,
  kind: z.enum(["audio", "video"]).optional(),
  durationSeconds: z.number().nonnegative().optional(),
  label: z.string(),
});
const sentRecord = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("photos"),
    userId: z.number().int(),
    photos: z.array(photoInput).min(1),
    /** photos of the album past the ones an edit takes */
    extra: z.number().int().nonnegative().default(0),
    caption: z.string().optional(),
    /** the offer's own message, edited as more photos of the album arrive */
    offerMessageId: z.number().int().optional(),
  }),
  z.object({ kind: z.literal("media"), userId: z.number().int(), media: mediaInput }),
  z.object({ kind: z.literal("text"), userId: z.number().int(), text: z.string().min(1) }),
]);
export type SentRecord = z.infer<typeof sentRecord>;
export type SentPhotos = Extract<SentRecord, { kind: "photos" }>;

/** A text at Telegram's length limit, answered, kept briefly for the rest of a message the client split. */
const splitHead = z.object({ text: z.string(), date: z.number().int(), answerId: z.number().int() });
export type SplitHead = z.infer<typeof splitHead>;
/** well past the seconds between a split message's parts, even when their updates wait their turn */
const splitHeadTtlSeconds = 60;

/** As long as a conversation waits for its user: an offer left for a day is gone. */
export const sentTtlSeconds = 24 * 60 * 60;

export function createSentStore(deps: { redis: Redis; prefix: string }) {
  const { redis } = deps;
  const recordKey = (chatId: number, messageId: number) => `${deps.prefix}:sent:${chatId}:${messageId}`;
  const splitKey = (chatId: number, userId: number) => `${deps.prefix}:sent-split:${chatId}:${userId}`;
  const albumKey = (chatId: number, group: string) => `${deps.prefix}:sent-album:${chatId}:${group}`;

  const parse = (raw: string | null): SentRecord | undefined => {
    if (raw === null) return undefined;
    try {
      const parsed = sentRecord.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  };

  return {
    async keep(chatId: number, messageId: number, record: SentRecord): Promise<void> {
      await redis.set(recordKey(chatId, messageId), JSON.stringify(record), "EX", sentTtlSeconds);
    },
    /** Keeps a record only while it is there still (an album's later photo must not bring back a taken offer). */
    async update(chatId: number, messageId: number, record: SentRecord): Promise<void> {
      await redis.set(recordKey(chatId, messageId), JSON.stringify(record), "EX", sentTtlSeconds, "XX");
    },
    async read(chatId: number, messageId: number): Promise<SentRecord | undefined> {
      return parse(await redis.get(recordKey(chatId, messageId)));
    },
    /** The record, once: a second press (or a stale one) finds nothing. */
    async take(chatId: number, messageId: number): Promise<SentRecord | undefined> {
      return parse(await redis.getdel(recordKey(chatId, messageId)));
    },
    async keepSplitHead(chatId: number, userId: number, head: SplitHead): Promise<void> {
      await redis.set(splitKey(chatId, userId), JSON.stringify(head), "EX", splitHeadTtlSeconds);
    },
    /** The split text's head kept for this user in this chat, once. */
    async takeSplitHead(chatId: number, userId: number): Promise<SplitHead | undefined> {
      const raw = await redis.getdel(splitKey(chatId, userId));
      if (raw === null) return undefined;
      try {
        const parsed = splitHead.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    /**
     * The album's first message id: `messageId` when this photo is the first
     * seen of its album (it makes the offer), the first one's otherwise.
     */
    async albumStart(chatId: number, group: string, messageId: number): Promise<number> {
      const key = albumKey(chatId, group);
      const set = await redis.set(key, String(messageId), "EX", sentTtlSeconds, "NX");
      if (set === "OK") return messageId;
      const first = Number(await redis.get(key));
      return Number.isSafeInteger(first) && first > 0 ? first : messageId;
    },
  };
}
export type SentStore = ReturnType<typeof createSentStore>;
