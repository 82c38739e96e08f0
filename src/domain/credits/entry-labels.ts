/** What one ledger entry means to the user, for /balance and the Mini App. Each has a `credit-entry-<label>` text. */
export const entryLabels = [
  "welcome",
  "grant",
  "referral-bonus",
  "promo",
  "purchase",
  "plan",
  "hold",
  "charge",
  "charge-partial",
  "release",
  "refund",
  "adjustment-plus",
  "adjustment-minus",
  "purchase-refund",
  "referral-revoke",
] as const;
export type EntryLabel = (typeof entryLabels)[number];
