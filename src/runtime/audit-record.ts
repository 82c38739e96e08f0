import type { Redis } from "ioredis";
import { z } from "zod";

const lastAudit = z.object({ at: z.number(), violations: z.number().int().nonnegative() });
export type LastAudit = z.infer<typeof lastAudit>;

/**
 * The last ledger audit's result, kept in Redis: one process runs each audit
 * round, and every process's /metrics reports the latest, whichever ran it.
 */
export function auditRecord(redis: Redis, prefix: string) {
  const key = `${prefix}:ledger-audit:last`;
  return {
    async save(result: LastAudit): Promise<void> {
      await redis.set(key, JSON.stringify(result));
    },
    /** undefined before the first audit (or when what is stored does not parse) */
    async last(): Promise<LastAudit | undefined> {
      const raw = await redis.get(key);
      if (raw === null) return undefined;
      try {
        const parsed = lastAudit.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
export type AuditRecord = ReturnType<typeof auditRecord>;
