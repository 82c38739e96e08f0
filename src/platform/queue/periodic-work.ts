/** Work done every so often, by one process at a time (the worker role's rounds, runtime/periodic.ts). */
export interface PeriodicWork {
  /** its name in logs and in the round leases */
  name: string;
  /** how often it runs, in ms of the runtime's clock */
  everyMs: number;
  /** also once at start, even if another process ran it lately: what a restart must not wait for */
  atStart?: boolean;
  run(): Promise<void>;
}
