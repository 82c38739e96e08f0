/** What one look at a generation's task (or its parts' tasks) came to. */
export type SyncOutcome =
  | { kind: "nothing-to-do" }
  | { kind: "completed"; late: boolean }
  | { kind: "failed" }
  | { kind: "expired" }
  | { kind: "poll-again"; delayMs: number };
