import { randomBytes } from "node:crypto";
import { z } from "zod";

/** What sets an invite code apart from other /start parameters (`topup`, `inline`). */
export const referralPrefix = "r_";

/**
 * An invite code as it travels in `t.me/<bot>?start=<code>`: Telegram allows
 * up to 64 characters of A-Za-z0-9_- there; ours are the prefix and 12
 * random URL-safe characters (72 bits: not guessable by trying).
 */
export const referralCodeSchema = z
  .string()
  .max(64)
  .regex(/^r_[A-Za-z0-9_-]{1,62}$/);

export function makeReferralCode(): string {
  return `${referralPrefix}${randomBytes(9).toString("base64url")}`;
}

/** The invite code in a /start parameter; undefined for anything else. */
export function referralCodeOf(startParameter: string | undefined): string | undefined {
  const parsed = referralCodeSchema.safeParse(startParameter?.trim());
  return parsed.success ? parsed.data : undefined;
}
