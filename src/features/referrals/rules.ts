/** What the bot knows of the user who opened an invite link, before the invite is recorded. */
export interface NewcomerFacts {
  referredId: number;
  /** the owner of the code; undefined when no user has it */
  referrerId: number | undefined;
  /** anything of the user's the bot already has: ledger entries, payments, requests, an invite code, invitees */
  hasHistory: boolean;
  alreadyReferred: boolean;
}

export type ReferralVerdict = "accepted" | "unknown-code" | "self" | "existing-user" | "already-referred";

/**
 * Whether an invite counts. Only a newcomer can be invited: someone the bot
 * has no trace of yet (no credits ever moved, no payment, no request, no
 * invite code or invitee of their own). That also rules out loops: whoever
 * invited B already has a history when B's link reaches them.
 */
export function referralVerdict(f: NewcomerFacts): ReferralVerdict {
  if (f.referrerId === undefined) return "unknown-code";
  if (f.referrerId === f.referredId) return "self";
  if (f.alreadyReferred) return "already-referred";
  if (f.hasHistory) return "existing-user";
  return "accepted";
}
