import { defaultJournalOptions } from "../bot/update-journal";
import type { TelegramLimits } from "../domain/generations/deliver/send-outputs";
import { defaultTransientRetry, type TransientRetry } from "../platform/telegram/api-transformers";

/** Intervals and grace periods of one process, in clock ms unless said otherwise. */
export interface RuntimeTiming {
  reconcileEveryMs: number;
  adoptionGraceMs: number;
  operatorPauseMs: number;
  maxPollIntervalMs: number;
  pollingTimeoutSeconds: number;
  /** real ms; how soon the jobs of a killed worker are taken up again */
  jobLockMs: number;
  /** real ms the workers get to finish their jobs at shutdown before they are handed back */
  drainMs: number;
  /** real ms an update's handler holds it before another may take it over (renewed while it works) */
  updateLeaseMs: number;
  /** how often the worker audits the ledger and looks at the queues' backlog */
  operatorChecksEveryMs: number;
  /** an alert of one kind (other than a service refusal) reaches the admins at most once per this */
  alertWindowMs: number;
  /** how often the worker deletes stored results past their retention */
  mediaRetentionEveryMs: number;
  /** real ms: a webhook update still in handling gets its 200 after this (Telegram redelivers slow answers) */
  webhookAnswerMs: number;
  /** real ms between a broadcast's ticks: how often its progress message may change */
  broadcastTickMs: number;
  /** real ms after which a broadcast copy claimed but never reported (its worker died) counts as unconfirmed */
  broadcastClaimStaleMs: number;
  /** how often the worker compares the bot's Stars transactions with the payments table */
  paymentsReconcileEveryMs: number;
  /** how often a web process deletes handled updates past their retention from the update journal */
  journalCleanupEveryMs: number;
  /** real ms a periodic round's holder keeps the other processes out after it stopped renewing (it died) */
  roundLeaseMs: number;
  /** how a Bot API call that failed in passing (a lost connection, a 5xx) is tried again, in real ms */
  telegramRetry: TransientRetry;
}

export const defaultTiming: RuntimeTiming = {
  reconcileEveryMs: 60_000,
  // past it the create is sent again with the same Idempotency-Key; a service that honours the
  // key answers with the task it holds, so only one that forgets keys can make a second task
  // (recorded as an orphan). Longer only delays the restart of an interrupted submission.
  adoptionGraceMs: 30_000,
  operatorPauseMs: 300_000,
  maxPollIntervalMs: 60_000,
  pollingTimeoutSeconds: 30,
  // a killed worker's jobs run again within this plus half of it (the stalled-job check);
  // renewed every half of it while a job runs, so only a process stalled this long loses one
  jobLockMs: 10_000,
  // updates, then jobs, each up to this: inside main's 38 s and compose's 40 s grace
  drainMs: 15_000,
  updateLeaseMs: defaultJournalOptions.leaseMs,
  operatorChecksEveryMs: 10 * 60_000,
  alertWindowMs: 30 * 60_000,
  mediaRetentionEveryMs: 60 * 60_000,
  webhookAnswerMs: 8_000,
  broadcastTickMs: 3_000,
  // well past a copy's longest call (broadcastCallTimeoutSeconds)
  broadcastClaimStaleMs: 120_000,
  paymentsReconcileEveryMs: 5 * 60_000,
  journalCleanupEveryMs: 10 * 60_000,
  roundLeaseMs: 30_000,
  telegramRetry: defaultTransientRetry,
};

/** A broadcast copy that got no answer in this long is given up (and not tried again). */
export const broadcastCallTimeoutSeconds = 30;

/** How far the bot goes before it gives up, and how long what it hands out lives. */
export interface RuntimePolicy {
  /** creates of one generation (same Idempotency-Key) before it is failed and released */
  maxSubmissions: number;
  /** sends of one result before it is refunded and the user told */
  maxDeliveryAttempts: number;
  /** real ms a service call may take: a create includes the service downloading up to 100 MB */
  mediaTimeoutMs: number;
  /** real ms the download of a dubbing source into our storage may take (up to DUB_SOURCE_MAX_MB) */
  sourceDownloadMs: number;
  /** seconds a signed link to a Telegram upload stays valid for the service to download it */
  inputLinkSeconds: number;
  /** jobs waiting in one queue beyond which the admins are alerted */
  backlogLimit: number;
  /** Telegram send jobs (results, broadcast copies) one worker process runs at once */
  sendConcurrency: number;
  /** Telegram's size limits for results (tests lower them to send a picture as a document); Telegram's own when unset */
  telegramLimits?: TelegramLimits;
}

export const defaultPolicy: RuntimePolicy = {
  maxSubmissions: 6,
  maxDeliveryAttempts: 12,
  mediaTimeoutMs: 120_000,
  sourceDownloadMs: 30 * 60_000,
  inputLinkSeconds: 3600,
  backlogLimit: 500,
  sendConcurrency: 4,
};
