import { and, eq, inArray, like, sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import { notAtRest } from "../../domain/generations/states";
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
  orphanTasks,
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
  /** how long to wait for a result being sent before answering "busy" (10 s) */
  settleMs?: number;
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

  /** The user's requests not at rest (running, or a result on its way): the erasure waits for them. */
  async function unsettled(ex: Pick<Database, "select">, userId: number): Promise<number> {
    const rows = await ex
      .select({ id: generations.id })
      .from(generations)
      .where(and(eq(generations.userId, userId), inArray(generations.state, notAtRest)));
    return rows.length;
  }

  return {
    /**
     * Stops what runs (until nothing of theirs is in motion, for at most
     * `settleMs`: a result being sent arrives first), then erases. "busy":
     * something was still in motion, and nothing was erased.
     */
    async erase(userId: number): Promise<Erased | "busy"> {
      let cancelled = 0;
      const until = Date.now() + (deps.settleMs ?? 10_000);
      for (;;) {
        cancelled += await deps.generations.stopAllOf(userId);
        if ((await unsettled(db, userId)) === 0) break;
        if (Date.now() >= until) return "busy";
        await new Promise((r) => setTimeout(r, 250));
      }
      const atRest = (
        await db.select({ id: generations.id }).from(generations).where(eq(generations.userId, userId))
      ).map((g) => g.id);
      // the files first: a failure after them leaves rows that a second erasure still finds
      const files = await eraseFiles(atRest);
      const requests = await db.transaction(async (tx) => {
        // a request being created now (it reads this row `for share`) waits, or is seen below
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
        if ((await unsettled(tx, userId)) > 0) return undefined;
        const rows = await tx
          .select({
            id: generations.id,
            taskId: generations.taskId,
            serviceCredits: generations.serviceCredits,
          })
          .from(generations)
          .where(eq(generations.userId, userId));
        const ids = rows.map((g) => g.id);
        // what the service billed stays in the books (/stats' margin) as tasks of no request
        const billed = rows.filter((g) => (g.serviceCredits ?? 0) > 0);
        if (billed.length > 0) {
          await tx
            .insert(orphanTasks)
            .values(
              billed.map((g) => ({
                taskId: g.taskId ?? `erased-${g.id}`,
                serviceCredits: g.serviceCredits,
                reason: "erased at the user's request",
              })),
            )
            .onConflictDoNothing();
        }
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
        return ids.length;
      });
      if (requests === undefined) return "busy";
      await eraseRedis(userId);
      return { requests, files, cancelled };
    },
  };
}
export type Erasure = ReturnType<typeof createErasure>;
