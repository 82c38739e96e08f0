import type { Redis } from "ioredis";

/**
 * A webhook that arrives while the generation's sync job is already running (or
 * waiting) cannot promote it: it leaves a hint instead, which the running job
 * takes before it would sleep, and polls again at once.
 */
export function createSyncHints(redis: Redis, prefix: string) {
  const key = (id: string) => `${prefix}:sync-hint:${id}`;
  return {
    async leave(id: string, adopt?: string): Promise<void> {
      await redis.set(key(id), adopt ?? "", "PX", 3_600_000);
    },
    /** the hint, once; null when none was left */
    async take(id: string): Promise<{ adopt?: string } | null> {
      const value = await redis.getdel(key(id));
      if (value === null) return null;
      return value ? { adopt: value } : {};
    },
  };
}
export type SyncHints = ReturnType<typeof createSyncHints>;
