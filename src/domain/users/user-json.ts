import { z } from "zod";
import type { UserRecord } from "./users";

const timestamp = z.string().transform((s, ctx) => {
  const at = new Date(s);
  if (Number.isNaN(at.getTime())) {
    ctx.addIssue({ code: "custom", message: `not a timestamp: ${s}` });
    return z.NEVER;
  }
  return at;
});

/**
 * A `users` row as Postgres's `to_jsonb` writes it (column names, timestamps
 * as ISO text), read into the record drizzle would have returned. Typed
 * against `UserRecord`: a column added to the table fails the build here
 * until it is read too.
 */
export const userJson: z.ZodType<UserRecord, unknown> = z
  .object({
    id: z.number().int(),
    username: z.string().nullable(),
    first_name: z.string().nullable(),
    language: z.string(),
    language_chosen_at: timestamp.nullable(),
    blocked_at: timestamp.nullable(),
    banned_at: timestamp.nullable(),
    referral_code: z.string().nullable(),
    first_seen_at: timestamp,
    last_seen_at: timestamp,
  })
  .transform(
    (r): UserRecord => ({
      id: r.id,
      username: r.username,
      firstName: r.first_name,
      language: r.language,
      languageChosenAt: r.language_chosen_at,
      blockedAt: r.blocked_at,
      bannedAt: r.banned_at,
      referralCode: r.referral_code,
      firstSeenAt: r.first_seen_at,
      lastSeenAt: r.last_seen_at,
    }),
  );
