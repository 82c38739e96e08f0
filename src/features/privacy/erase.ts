import { and, eq, inArray, like, sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { GenerationTransitions } from "../../domain/generations/transitions";
import type { Database } from "../../platform/db/client";
import {
  chats,
  deliveries,
  dubParts,
  generations,
  holds,
  inlineOffers,
  kvStore,
  ledgerEntries,
  promptRefusals,
  userPreferences,
  users,
} from "../../platform/db/schema";
import { inputsArea, type MediaStore } from "../../platform/storage/stored-file";

export interface ErasureDeps {
  db: Database;
  redis: Redis;
  /** the runtime's Redis key prefix */
  prefix: string;
  store: Pick<MediaStore, "removeFolder">;
  generations: Pick<GenerationTransitions, "stopAllOf">;
}

/** What one erasure did, as the user is told. */
export interface Erased {
  /** requests erased (with their prompts, options, inputs and results) */
  requests: number;
  /** files deleted from the media store: copies of results and kept inputs */
  files: number;
  /** requests that were still running, stopped with their credits returned */
  cancelled: number;
}

/** Redis keys under `prefix` that hold a user's words or files for a day: offers, uploads, split messages. */
const perUserKeys = ["sent", "inline:offer", "miniapp:input"] as const;

/**
 * "Delete my data": running work is stopped and refunded first; then the
 * user's requests (prompts, options, inputs, results and their files),
 * offers, uploads, preferences, conversations and refusals are deleted, and
 * what the books keep (the balance, its ledger entries, holds and payments)
 * loses every note and name. The users row stays, nameless, for the balance.
 */
export function createErasure(deps: ErasureDeps) {
  const { db, redis } = deps;

  /** Deletes the day-long Redis records that name this user (their JSON's userId), and their split-message heads. */
  async function eraseRedis(userId: number): Promise<void> {
    const owned = (raw: string | null) => {
      if (raw === null) return false;
      try {
        return (JSON.parse(raw) as { userId?: unknown }).userId === userId;
      } catch {
        return false;
      }
    };
    for (const area of perUserKeys) {
      let cursor = "0";
      do {
        const [next, keys] = await redis.scan(cursor, "MATCH", `${deps.prefix}:${area}:*`, "COUNT", 500);
        cursor = next;
        if (keys.length === 0) continue;
        const values = await redis.mget(...keys);
        const mine = keys.filter((_, i) => owned(values[i] ?? null));
        if (mine.length > 0) await redis.del(...mine);
      } while (cursor !== "0");
    }
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(
        cursor,
        "MATCH",
        `${deps.prefix}:sent-split:*:${userId}`,
        "COUNT",
        500,
      );
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  }

  async function eraseFiles(ids: readonly string[]): Promise<number> {
    let files = 0;
    for (const id of ids) {
      files += await deps.store.removeFolder(id);
      files += await deps.store.removeFolder(`${inputsArea}/${id}`);
    }
    return files;
  }

  return {
    async erase(userId: number): Promise<Erased> {
      const cancelled = await deps.generations.stopAllOf(userId);
      const ids = (
        await db.select({ id: generations.id }).from(generations).where(eq(generations.userId, userId))
      ).map((g) => g.id);
      // the files first: a failure after them leaves rows that the retention (or a second erasure) still finds
      const files = await eraseFiles(ids);
      await db.transaction(async (tx) => {
        if (ids.length > 0) {
          await tx.delete(dubParts).where(inArray(dubParts.generationId, ids));
          await tx.delete(deliveries).where(inArray(deliveries.generationId, ids));
          await tx.delete(generations).where(inArray(generations.id, ids));
        }
        await tx.delete(inlineOffers).where(eq(inlineOffers.userId, userId));
        await tx.delete(userPreferences).where(eq(userPreferences.userId, userId));
        await tx.delete(promptRefusals).where(eq(promptRefusals.userId, userId));
        // conversations are kept per chat and user: `conversation:<chat>:<user>`
        await tx.delete(kvStore).where(like(kvStore.key, `conversation:%:${userId}`));
        await tx.update(ledgerEntries).set({ note: null }).where(eq(ledgerEntries.userId, userId));
        await tx.update(holds).set({ reason: null }).where(eq(holds.userId, userId));
        await tx
          .update(chats)
          .set({ title: null })
          .where(and(eq(chats.id, userId), eq(chats.type, "private")));
        await tx
          .update(users)
          .set({ username: null, firstName: null, lastSeenAt: sql`now()` })
          .where(eq(users.id, userId));
      });
      await eraseRedis(userId);
      return { requests: ids.length, files, cancelled };
    },
  };
}
export type Erasure = ReturnType<typeof createErasure>;
